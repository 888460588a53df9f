#!/bin/bash
# t-shmem-hosts-reply-slots - the answers of atomics shipped to other
# supernodes reach the thread that asked, each thread on a tag of its own,
# and a thread that ends leaves its tag and its persistent receives to the
# next one (tests/shmem/reply_slots.c: fetched values exact with four
# threads at once, no new receive for forty threads one after another;
# then with one line per thread's table, where the answers of all but one
# PE come into an MPI_Irecv each).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    local line="reply_slots${1:+ (one line)}: 4 threads at once on 4 tags, fetched values exact; 40 threads one after another reused their slots"
    job 0 "$PES" "$B/tests/shmem/reply_slots" $1 || return
    if grep -qF "$line" "$T/out"; then
        ok "[$SPLIT_NAME] $line"
    else
        bad "[$SPLIT_NAME] expected the line '$line'; output:"
        sed 's/^/    /' "$T/out" | tail -10
    fi
}
for l in 2:hosts=2 4:hosts=2; do
    split_layout "$l" && run
done
split_layout 4:hosts=2 && run one-line
finish
