#include "textflag.h"

// func cpuid(leaf, subleaf uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL subleaf+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET

// func pdep(src, mask uint64) uint64
TEXT ·pdep(SB), NOSPLIT, $0-24
	MOVQ src+0(FP), AX
	MOVQ mask+8(FP), BX
	PDEPQ BX, AX, CX
	MOVQ CX, ret+16(FP)
	RET
