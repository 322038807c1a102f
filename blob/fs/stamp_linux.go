package fs

import (
	"os"
	"syscall"
)

// stampOf returns the stamp of a content file from its FileInfo.
func stampOf(fi os.FileInfo) (stamp, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return stamp{}, false
	}
	return stamp{Dev: uint64(st.Dev), Ino: st.Ino, Size: fi.Size(), Ctime: st.Ctim.Nano()}, true
}
