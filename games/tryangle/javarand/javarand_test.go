package javarand

import (
	"bufio"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// testdata/java17.txt was produced once by testdata/Gen.java.txt on OpenJDK
// 17 (java.util.Random); the test replays the same calls and compares.
func TestMatchesJava17(t *testing.T) {
	f, err := os.Open("testdata/java17.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r *Random
	checked := 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		num := func(i int) int64 {
			n, err := strconv.ParseInt(fields[i], 10, 64)
			if err != nil {
				t.Fatalf("line %d: %v", line, err)
			}
			return n
		}
		switch fields[0] {
		case "seed":
			r = New(num(1))
		case "nextInt":
			bound, want := num(1), num(2)
			if got := r.IntN(int32(bound)); int64(got) != want {
				t.Fatalf("line %d: nextInt(%d) = %d, Java gave %d", line, bound, got, want)
			}
			checked++
		case "nextInt32":
			if got, want := r.Int(), num(1); int64(got) != want {
				t.Fatalf("line %d: nextInt() = %d, Java gave %d", line, got, want)
			}
			checked++
		case "nextDouble":
			got, want := r.Float64(), math.Float64frombits(uint64(num(1)))
			if got != want {
				t.Fatalf("line %d: nextDouble() = %v, Java gave %v", line, got, want)
			}
			checked++
		default:
			t.Fatalf("line %d: unknown record %q", line, fields[0])
		}
	}
	if checked < 400 {
		t.Fatalf("only %d values checked", checked)
	}
}

// new Random(42).nextInt(100) five times, as printed by OpenJDK 17.
func TestKnownSeed42(t *testing.T) {
	r := New(42)
	want := []int32{30, 63, 48, 84, 70}
	for i, w := range want {
		if got := r.IntN(100); got != w {
			t.Fatalf("draw %d: got %d, want %d", i, got, w)
		}
	}
}

func TestIntNPanicsOnBadBound(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("IntN(0) did not panic")
		}
	}()
	New(1).IntN(0)
}
