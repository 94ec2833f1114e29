package tune

import "github.com/boardgame-arena/arena/option"

// named is an *option.Error that only names an option, for a message that
// says more around the name ("Values lists 1 values; …", "give Records
// FILE…"), wrapped with %w: a command line shows the name as its flag
// there (option.Render). It replaces the first occurrence of the name in
// the whole message, so it is used only where no text of the caller (a
// path, an agent spec) comes before it.
func named(name string) error { return option.New(name, nil, "") }
