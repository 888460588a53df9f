#!/bin/bash
# t-shmem-team - OpenSHMEM teams: splits in every shape against a serial
# model, translate_pe between all teams, get_config, slots recycled and run
# out of (tests/shmem/team_split.c); shmem_team_sync's ordering and
# shmem_team_ptr (team_sync.c); team contexts and their team-relative PE
# numbers (team_ctx.c), for the 1.6 ctx routines too: ibput/ibget,
# signal_add/set, pe_quiet, sessions (team_ctx_ops.c); at 2, 3, 4 and 8 PEs.
. "$(dirname "$0")/shmem/driver.sh"
. "$(dirname "$0")/shmem/team_cases.sh"
for n in $PES; do
    team_run "$n"
done
finish
