// Package option reports a value that a library call refuses in the names
// its Go caller typed — a field such as GamesPerPair — and lets a command
// line show the same error in its own flags (--games) without parsing
// messages.
//
// A library returns an *Error (possibly wrapped); a Go caller reads its
// Error text as it is. A command line renders any error with Render and a
// function from option names to flags, in one place.
package option

import (
	"fmt"
	"strings"
)

// Error is one option whose value a call refuses.
type Error struct {
	// Name is the option as the caller writes it: a field name such as
	// "GamesPerPair", qualified ("SPSA.Iterations") only where one call
	// takes two options of that name.
	Name string
	// Value is the refused value as text, "" to show none.
	Value string
	// Reason says what is wrong and what to use instead. It names other
	// options in braces, "{MoveTime}", so that Render can show them too.
	// A Reason that begins with this option's own name in braces is the
	// whole message, for a sentence that does not fit "Name Value:
	// Reason": "{Concurrency} 0 is out of range: use 1 to 256".
	Reason string
}

// New returns an *Error for option name with the refused value (formatted
// with %v; a string is shown as it is, "" not at all) and a reason made
// with fmt.Sprintf.
func New(name string, value any, format string, args ...any) *Error {
	v := ""
	if value != nil {
		v = fmt.Sprint(value)
	}
	return &Error{Name: name, Value: v, Reason: fmt.Sprintf(format, args...)}
}

// Error is the message in the caller's option names:
// "GamesPerPair 3: use an even number from 2 to 1000000".
func (e *Error) Error() string { return e.Text(nil) }

// Text is the message with every option name (this one and those in
// braces in Reason) passed through name; nil leaves them as they are.
func (e *Error) Text(name func(string) string) string {
	if name == nil {
		name = func(s string) string { return s }
	}
	if strings.HasPrefix(e.Reason, "{"+e.Name+"}") {
		return Names(e.Reason, name)
	}
	var b strings.Builder
	b.WriteString(name(e.Name))
	if e.Value != "" {
		b.WriteString(" ")
		b.WriteString(e.Value)
	}
	if e.Reason != "" {
		b.WriteString(": ")
		b.WriteString(Names(e.Reason, name))
	}
	return b.String()
}

// Names replaces every "{Name}" in text by name("Name"), and, with name
// nil, by Name. A brace that opens no name (no closing brace, or a space
// inside) is kept as it is.
func Names(text string, name func(string) string) string {
	if name == nil {
		name = func(s string) string { return s }
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := strings.IndexByte(text[i:], '}')
		if j < 0 || j == 1 || strings.ContainsAny(text[i+1:i+j], " {\n") {
			b.WriteString(text[:i+1])
			text = text[i+1:]
			continue
		}
		b.WriteString(text[:i])
		b.WriteString(name(text[i+1 : i+j]))
		text = text[i+j+1:]
	}
}

// Render is err's message with the text of every *Error in its tree
// (through Unwrap and errors.Join) shown through name, so that a wrapped
// "tournament: GamesPerPair 3: …" names the command line's flag instead
// of GamesPerPair.
// Render(nil, name) is "".
func Render(err error, name func(string) string) string {
	if err == nil {
		return ""
	}
	msg := err.Error()
	for _, e := range all(err, nil) {
		msg = strings.Replace(msg, e.Error(), e.Text(name), 1)
	}
	return msg
}

// all collects the *Errors in err's tree, outermost first.
func all(err error, out []*Error) []*Error {
	if e, ok := err.(*Error); ok {
		return append(out, e)
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		if next := u.Unwrap(); next != nil {
			return all(next, out)
		}
	case interface{ Unwrap() []error }:
		for _, next := range u.Unwrap() {
			out = all(next, out)
		}
	}
	return out
}

// OutOfRange is the error for option name set to value outside lo to hi,
// in the words every range check uses: "Concurrency 0 is out of range: use
// 1 to 256", with note (if any) after the range. Values are formatted with
// %v; format a duration with spec.FormatDuration first.
func OutOfRange(name string, value, lo, hi any, note string) *Error {
	return New(name, value, "{%s} %v is out of range: use %v to %v%s", name, value, lo, hi, note)
}
