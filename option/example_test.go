package option_test

import (
	"errors"
	"fmt"

	"github.com/boardgame-arena/arena/option"
)

// Options is what a library function takes; Check refuses a value in the
// names of its fields.
type Options struct {
	GamesPerPair int
	Concurrency  int
}

func (o Options) Check() error {
	if o.GamesPerPair < 2 || o.GamesPerPair%2 != 0 {
		return option.New("GamesPerPair", o.GamesPerPair, "use an even number of at least 2 (games come in colour-swapped pairs)")
	}
	if o.Concurrency < 1 || o.Concurrency > 256 {
		return option.OutOfRange("Concurrency", o.Concurrency, 1, 256, "")
	}
	return nil
}

// A library refuses a value with the name of the option its Go caller
// set; the caller reads the message as it is, or finds the option with
// errors.As.
func ExampleNew() {
	err := fmt.Errorf("tournament: %w", Options{GamesPerPair: 3, Concurrency: 1}.Check())
	fmt.Println(err)
	var oe *option.Error
	if errors.As(err, &oe) {
		fmt.Printf("option %s, value %s\n", oe.Name, oe.Value)
	}
	fmt.Println(Options{GamesPerPair: 2, Concurrency: 0}.Check())
	// Output:
	// tournament: GamesPerPair 3: use an even number of at least 2 (games come in colour-swapped pairs)
	// option GamesPerPair, value 3
	// Concurrency 0 is out of range: use 1 to 256
}
