-- 0011_anchor_exclusion_roots: an anchor record (store.Anchor) carries the
-- four roots of its list version, the exclusion roots beside the
-- membership ones, since the verifier contract sets them in one
-- transaction (setRoots). Records written before carry no exclusion roots:
-- they anchored none, which is the zero root, written out here so that
-- every record has the four.
UPDATE anchors
SET record = record || jsonb_build_object(
        'exclusionRoot', '0x' || repeat('0', 64),
        'communityExclusionRoot', '0x' || repeat('0', 64))
WHERE NOT (record ? 'exclusionRoot');
