// Package ugi speaks UGI, the Universal Game Interface: UCI generalised
// to any two-player game, an engine answering commands on its standard
// input with lines on its standard output.
//
// The package holds the protocol once, for every side of it:
//
//   - the grammar: Field reads a line a word at a time; ParsePosition and
//     AppendPosition, ParseGo and Go, Info.Update and CheckInfo,
//     OptionName, ParseSetOption and SetOption, BestMove and Answers read
//     and write the commands, the info lines and the options;
//   - the client: a Client runs an engine (one process across games,
//     replaced after a failure; see agents/botproc) and asks it for moves;
//     the agents package's ugi:cmd=… agents are a thin adapter over it;
//   - the compliance checker: Check runs an engine through the protocol
//     and reports on each part (arena check-engine).
//
// The other direction, any agent served as a UGI engine (arena engine),
// is the subpackage ugi/server. It sits above the agents package, which
// registers the ugi agent kind and so imports this package: a server
// here, running agents, would make a cycle. This package imports only
// games, agents/botproc and the small leaf packages (option, rng, spec).
//
// Errors of options the caller set name the option (Check.Positions),
// never a command line's flag; a Client's failures are *Error values
// whose Kind says timeout, crash or unusable output.
package ugi
