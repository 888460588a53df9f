#!/bin/bash
# t-gasnet-am - every GASNet AM form, 0..16 arguments, Short, Medium, Long
# and LongAsync requests and their replies, arguments and payloads checked
# (tests/gasnet/am.c), SEQ and PAR (threads sending at once), 1 to 8 nodes.
. "$(dirname "$0")/gasnet/driver.sh"
every am
finish
