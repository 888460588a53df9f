#include <gasnet.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    if (gasnet_init(&argc, &argv) != GASNET_OK) return 1;
    if (gasnet_attach(NULL, 0, GASNET_PAGESIZE * 16, 0) != GASNET_OK) return 1;
    printf("hello from %u of %u\n", (unsigned)gasnet_mynode(), (unsigned)gasnet_nodes());
    gasnet_barrier_notify(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_barrier_wait(0, GASNET_BARRIERFLAG_ANONYMOUS);
    gasnet_exit(0);
    return 0;
}
