package sysmem

import (
	"strconv"
	"strings"
	"testing"
)

func TestParseMemInfo(t *testing.T) {
	tests := []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"MemTotal:       24684104 kB\nMemFree: 1 kB\n", 24684104 << 10, true},
		{"MemFree: 1 kB\nMemTotal: 1024 kB\n", 1 << 20, true},
		{"MemTotal: lots kB\n", 0, false},
		{"MemTotal: 1024 MB\n", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := parseMemInfo([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("parseMemInfo(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestCheckMB(t *testing.T) {
	const gb = 1 << 30
	tests := []struct {
		mb    int
		total uint64
		known bool
		want  string
	}{
		{64, 8 * gb, true, ""},
		{6144, 8 * gb, true, ""},
		{6145, 8 * gb, true, "tt=6145 MB is more than this machine can hold (8192 MB of memory): use at most 6144"},
		{1 << 30, 0, false, ""}, // unknown memory: no check
	}
	for _, tt := range tests {
		err := checkMB("tt="+strconv.Itoa(tt.mb), tt.mb, tt.total, tt.known)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("checkMB(%d, %d) = %v, want %q", tt.mb, tt.total, err, tt.want)
		}
	}
	if _, ok := Total(); !ok {
		t.Log("no /proc/meminfo here: the check is skipped")
	}
}
