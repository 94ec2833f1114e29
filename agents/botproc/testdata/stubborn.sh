#!/bin/sh
# A bot that is hard to stop, for the tests of package botproc. It ignores
# SIGTERM, SIGINT and SIGHUP, and so does the child it leaves in the
# background, which inherits the bot's stdout and stderr (keeping them open)
# and sleeps. Both write their pids to files in $PIDS. Once the child is up
# the bot prints "ready", then behaves as its first argument says:
#
#	echo    answer every input line L with "got L"; exit when input ends
#	crash   read a line, write to stderr and exit with status 3
#	stall   never answer (sleep, also ignoring the signals)
#	last    read a line, print "bye" and exit with status 0
trap '' TERM INT HUP
sh -c 'echo $$ >"$0.tmp" && mv "$0.tmp" "$0"; exec sleep 300' "$PIDS/child" &
echo $$ >"$PIDS/shell"
until [ -s "$PIDS/child" ]; do sleep 0.01; done
echo ready
case "$1" in
echo)
	while read -r l; do echo "got $l"; done ;;
crash)
	read -r l
	echo "about to crash" >&2
	exit 3 ;;
stall)
	sleep 300 ;;
last)
	read -r l
	echo bye
	exit 0 ;;
esac
