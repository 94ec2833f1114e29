package othello6

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks Linux to back the table with 2 MB pages where the
// system leaves that to the program (transparent huge pages "madvise"):
// a probe lands anywhere in a table of up to hundreds of megabytes, so with
// 4 kB pages nearly every probe also misses the TLB. It must run before
// the table is first written, while no page is mapped yet. A refusal is
// harmless (the table just keeps small pages), so its error is ignored.
func adviseHugePages(slots []ttSlot) {
	const huge = 2 << 20
	if len(slots)*int(unsafe.Sizeof(ttSlot{})) < 2*huge {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(&slots[0])), len(slots)*int(unsafe.Sizeof(ttSlot{})))
	// Only whole huge pages inside the table can be advised.
	start := (huge - int(uintptr(unsafe.Pointer(&b[0]))%huge)) % huge
	end := start + (len(b)-start)/huge*huge
	_ = syscall.Madvise(b[start:end], syscall.MADV_HUGEPAGE)
}
