/*
 * statics.c - the executable's global and static variables as symmetric
 * memory.
 *
 * OpenSHMEM makes every global and static variable a legal target of remote
 * operations. The executable's writable data and bss (its PT_LOAD segment
 * with PF_W, less the PT_GNU_RELRO part that is read-only after relocation)
 * are handed to pshm_attach_range at init: pshm copies them into a shared
 * object mapped over the same addresses, so the variables stay where the
 * program's code expects them, and maps every peer's copy here. Every PE
 * runs the same executable (checked: same range length and offset in the
 * image), so a variable's offset from the range's start is the same in every
 * PE, whatever address each loaded the executable at (PIE, ASLR).
 *
 * Page rounding: the range starts at the page holding the first writable
 * byte. If RELRO ends inside that page, its read-only bytes are in the range
 * too (copied, then writable): harmless, as nothing writes them. Copy
 * relocations of library variables in the bss (stdout, environ) are copied
 * with everything else. Variables of shared libraries (including
 * libpshmem.so's own) are not symmetric.
 */
#include "shmem_internal.h"

#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

typedef struct exe_range {
    uintptr_t start, end;   /* page-rounded writable data and bss */
    uintptr_t load_base;    /* dlpi_addr: start - load_base is the same in every PE */
    int found;
} exe_range_t;

/* The first object dl_iterate_phdr reports is the executable. */
static int find_exe(struct dl_phdr_info *info, size_t size, void *arg)
{
    exe_range_t *r = arg;
    uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), relro_end = 0, lo = 0, hi = 0;
    (void)size;

    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_GNU_RELRO)
            relro_end = info->dlpi_addr + ph->p_vaddr + ph->p_memsz;
    }
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t s, e;
        if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W) || ph->p_memsz == 0)
            continue;
        s = info->dlpi_addr + ph->p_vaddr;
        e = s + ph->p_memsz;
        if (relro_end > s && relro_end <= e)
            s = relro_end;
        if (s >= e)
            continue;
        if (lo == 0 || s < lo) lo = s;
        if (e > hi) hi = e;
    }
    if (lo != 0) {
        r->start = lo & ~(page - 1);
        r->end = (hi + page - 1) & ~(page - 1);
        r->load_base = info->dlpi_addr;
        r->found = 1;
    }
    return 1; /* the executable only */
}

static exe_range_t exe;

void shm_statics_attach(void)
{
    int rc;

    memset(&exe, 0, sizeof exe);
    dl_iterate_phdr(find_exe, &exe);
    /* Every PE takes part, with an empty range if nothing was found. */
    rc = pshm_attach_range(shm.ctx, exe.found ? (void *)exe.start : NULL,
                           exe.found ? exe.end - exe.start : 0);
    if (rc < 0)   /* collective: every PE fails alike */
        shm_fatal_all("shmem_init", "cannot make the program's global and static variables "
                      "symmetric: %s", pshm_last_error());
}

void shm_statics_tables(void)
{
    pshm_seginfo_t mine, info;

    if (pshm_range_info(shm.ctx, shm.me, &mine) < 0)
        shm_fatal("shmem_init", "%s", pshm_last_error());
    /* The PEs of other supernodes are compared through MPI (net.c). */
    for (int i = 0; i < shm.node_npes; i++) {
        int pe = shm.node_pes[i];
        if (pshm_range_info(shm.ctx, pe, &info) < 0)
            shm_fatal("shmem_init", "%s", pshm_last_error());
        /* Same executable everywhere: same length. A PE with another
         * program (MPMD) would make statics meaningless: refuse it. */
        if (info.size != mine.size)   /* then PE 0 differs from someone too */
            shm_fatal_all("shmem_init", "PE %d's global and static data is %zu bytes, PE %d's "
                          "%zu: every PE must run the same executable", pe, info.size, shm.me,
                          mine.size);
        shm_sym.base[SHM_DATA][pe] = info.local_base;
        shm_sym.lim[SHM_DATA][pe] = info.size;
    }
    shm_sym.mine[SHM_DATA] = (uintptr_t)mine.local_base;
    shm_sym.size[SHM_DATA] = mine.size;
}
