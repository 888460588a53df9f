/*
 * mode.c - gasnet_init of one thread mode, compiled once per library:
 * libgasnet-smp-seq.a (GASNET_SEQ) and libgasnet-smp-par.a (GASNET_PAR and
 * GASNET_PARSYNC), so that a client compiled for one mode and linked with
 * the other library fails the link instead of running wrong.
 */
int gsn_init(int *argc, char ***argv, int threads);

#if defined(GASNETC_MODE_PAR)
int gasnetc_init_par(int *argc, char ***argv);
int gasnetc_init_par(int *argc, char ***argv) { return gsn_init(argc, argv, 1); }
#else
int gasnetc_init_seq(int *argc, char ***argv);
int gasnetc_init_seq(int *argc, char ***argv) { return gsn_init(argc, argv, 0); }
#endif
