#!/bin/bash
# t-shmem-hosts-serial - the layer makes its MPI calls one at a time: with
# four threads per PE shipping atomics, puts and gets to other supernodes
# and the progress thread polling every 50 us, no MPI call of the layer
# overlaps another, a layer that initialized MPI asked it for
# MPI_THREAD_SERIALIZED, and shmem_init_thread provides
# SHMEM_THREAD_MULTIPLE (tests/shmem/mpi_serial.c counts the threads
# inside MPI by defining the calls over their PMPI forms).
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/split.sh"
run() {
    SPLIT_ENV+=("SHMEM_PROGRESS_INTERVAL=50")
    job 0 "$PES" "$B/tests/shmem/mpi_serial" &&
        expect_out "^mpi_serial: [0-9]* MPI calls from 4 threads and the progress thread, none overlapping"
}
for l in 2:hosts=2 4:hosts=2; do
    split_layout "$l" && run
done
finish
