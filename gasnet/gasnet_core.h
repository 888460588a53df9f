/*
 * gasnet_core.h - the smp conduit's core: what names this conduit.
 * Installed as smp-conduit/gasnet_core.h, where GASNet keeps a
 * conduit's core header (a client's configure looks for it there);
 * gasnet.h includes it.
 */
#ifndef GASNET_CORE_H
#define GASNET_CORE_H

#ifndef GASNET_H
#error "include gasnet.h, not gasnet_core.h"
#endif

#define GASNET_CONDUIT_SMP 1
#define GASNET_CONDUIT_NAME SMP
#define GASNET_CONDUIT_NAME_STR "SMP"
#define GASNET_CORE_NAME SMP
#define GASNET_CORE_NAME_STR "SMP"
#define GASNET_CORE_VERSION 2.0
#define GASNET_CORE_VERSION_STR "2.0"

#define GASNET_PSHM 1
#define GASNET_SEGMENT_FAST 1
#define GASNET_ALIGNED_SEGMENTS 0

#endif /* GASNET_CORE_H */
