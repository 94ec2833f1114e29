package server

// BenchPosition is benchPosition, for the tests of package server_test.
var BenchPosition = benchPosition
