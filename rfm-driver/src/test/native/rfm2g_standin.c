/*
 * A stand-in for the vendor's librfm2g: the same function names and signatures, implemented over the shared files
 * of the emulated network (docs/protocol.md), so that the rfm2g backend is exercised through real native calls and
 * an rfm2g node can talk to sim nodes of the same network.
 *
 * The "device node" is a small text file naming the card, one key=value per line:
 *   network=/dev/shm/rfmrt/lab     folder of the emulated network (created by a sim node)
 *   node=3                         node id of this card
 *   dmaBuffer=65536                bytes of "boot-reserved" DMA buffer, 0 = none (RFM2gRead falls back to PIO)
 *
 * Behaviour follows the vendor's API and Linux driver where the tests look at it: status codes, range and alignment
 * checks, one waiter per event type, time-outs in milliseconds turned into jiffies (at least one, so a wait with
 * RFM2G_NO_WAIT on an empty queue still sleeps a jiffy), sending to self refused, reads at or above the DMA
 * threshold into the DMA mapping done "by DMA" (counted), anything else by PIO.
 */
#define _GNU_SOURCE
#include "rfm2g_standin.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* ------------------------------------------------------------------ emulator layout (ControlBlockDescriptor) */

#define MAGIC 0x4d495354524d4652ULL
#define LAYOUT_VERSION 2
#define CARD_COUNT 256
#define HEADER_SIZE 4096
#define FIFO_COUNT 9 /* event types in use */
#define TYPE_ID_LIMIT 16 /* FIFO places per card, one per possible type id */
#define FIFO_CAPACITY 127
#define FIFO_SLOTS 128
#define ENTRY_SIZE 32
#define FIFO_SIZE (256 + FIFO_SLOTS * ENTRY_SIZE)
#define CARD_FIFOS 2048
#define CARD_SIZE (((CARD_FIFOS + TYPE_ID_LIMIT * FIFO_SIZE) + 4095) & ~4095)
#define FILE_SIZE ((size_t)HEADER_SIZE + (size_t)CARD_COUNT * CARD_SIZE)

#define H_MAGIC 0
#define H_VERSION 8
#define H_CARD_COUNT 12
#define H_MEMORY_SIZE 16
#define H_CARD_SIZE 24
#define H_LINK_STATE 64
#define H_PRESENT 128

#define C_OWNER_PID 0
#define C_OWNER_START 8
#define C_FLAGS 16
#define C_ENABLED 20
#define C_BOARD_ID 24
#define C_GENERATION 28
#define C_COUNTERS 64

#define F_HEAD 0
#define F_TAIL 64
#define F_LINE 128
#define F_WAITERS 132
#define F_ENTRIES 256
#define E_SEQUENCE 0
#define E_ARRIVAL 8
#define E_DATA 16
#define E_SOURCE 20

#define FLAG_LOOPBACK 1
#define FLAG_TRANSMIT_OFF 2
#define FLAG_LED 4

/* counter slots (RfmCounter ids); per-type counters add the emulator's type id (16 slots each) */
#define K_EVENTS_SENT 0
#define K_EVENTS_RECEIVED 16
#define K_FIFO_OVERFLOWS 32
#define K_EVENTS_DISABLED 48
#define K_SENDS_REFUSED 64
#define K_SENDS_UNDELIVERED 65
#define K_AWAIT_TIMEOUTS 66
#define K_AWAIT_CANCELS 67
#define K_INTERRUPTS_RAISED 68

/* emulator type ids */
#define T_RXFIFO_FULL 6
#define T_BAD_DATA 5
#define T_SYNC_LOSS 8

#define STRUCT_ID 0x52464d32u /* "RFM2" */
#define MAX_HANDLES 64
#define PAGE 4096u
#define STANDIN_VERSION "standin-1.0"
#define STANDIN_HZ 250

struct rfm2ghandle_s
{
    RFM2G_UINT32 struct_id;
    int node;
    int fd_control;
    int fd_memory;
    uint8_t *control;
    uint8_t *memory;
    uint64_t memory_size;
    char device[128];
    volatile RFM2G_UINT32 threshold;
    uint8_t *dma;
    size_t dma_size;
    int waiting[FIFO_COUNT];
    int cancelled[FIFO_COUNT];
    RFM2G_UINT32 peak[FIFO_COUNT];
    RFM2G_UINT32 last_timeout[FIFO_COUNT];
    pthread_mutex_t dma_lock;
    uint64_t dma_reads;
    uint64_t pio_reads;
    uint64_t dma_writes;
    uint64_t pio_writes;
};

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct rfm2ghandle_s *registry[MAX_HANDLES];

/* --------------------------------------------------------------------------------------------- small helpers */

static int64_t *i64(struct rfm2ghandle_s *h, size_t offset)
{
    return (int64_t *)(h->control + offset);
}

static int32_t *i32(struct rfm2ghandle_s *h, size_t offset)
{
    return (int32_t *)(h->control + offset);
}

static size_t card(int node)
{
    return HEADER_SIZE + (size_t)node * CARD_SIZE;
}

static size_t fifo(int node, int type)
{
    return card(node) + CARD_FIFOS + (size_t)type * FIFO_SIZE;
}

static size_t entry(size_t fifo_offset, int64_t index)
{
    return fifo_offset + F_ENTRIES + (size_t)(index & (FIFO_SLOTS - 1)) * ENTRY_SIZE;
}

static void add_counter(struct rfm2ghandle_s *h, int node, int slot, int64_t delta)
{
    __atomic_fetch_add(i64(h, card(node) + C_COUNTERS + (size_t)slot * 8), delta, __ATOMIC_SEQ_CST);
}

static int64_t counter(struct rfm2ghandle_s *h, int node, int slot)
{
    return __atomic_load_n(i64(h, card(node) + C_COUNTERS + (size_t)slot * 8), __ATOMIC_SEQ_CST);
}

static int64_t now_nanos(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* vendor event type -> emulator FIFO, -1 when the emulated card has no such event */
static int fifo_of(int vendor)
{
    if (vendor >= RFM2GEVENT_RESET && vendor <= RFM2GEVENT_ROGUE_PKT)
    {
        return vendor;
    }
    return vendor == RFM2GEVENT_SYNC_LOSS ? T_SYNC_LOSS : -1;
}

static int valid_event(int vendor)
{
    return vendor >= RFM2GEVENT_RESET && vendor < RFM2GEVENT_LAST;
}

static RFM2G_STATUS check_handle(RFM2GHANDLE rh)
{
    if (rh == NULL)
    {
        return RFM2G_NULL_DESCRIPTOR;
    }
    int found = 0;
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < MAX_HANDLES; i++)
    {
        if (registry[i] == rh)
        {
            found = 1;
            break;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    /* only a registered handle is ever dereferenced */
    if (!found || rh->struct_id != STRUCT_ID)
    {
        return RFM2G_BAD_PARAMETER_1;
    }
    return RFM2G_SUCCESS;
}

/* ----------------------------------------------------------------------------------------- process liveness */

/* field 22 of /proc/PID/stat, or -1 when the process is gone or a zombie */
static long long start_time(long pid)
{
    char path[64];
    char buf[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
    {
        return -1;
    }
    const ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
    {
        return -1;
    }
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (p == NULL || p[1] != ' ')
    {
        return -1;
    }
    p += 2;
    if (*p == 'Z' || *p == 'X')
    {
        return -1;
    }
    /* p is at field 3; skip to field 22 */
    for (int field = 3; field < 22; field++)
    {
        p = strchr(p, ' ');
        if (p == NULL)
        {
            return -1;
        }
        p++;
    }
    char *end;
    errno = 0;
    const long long value = strtoll(p, &end, 10);
    return errno != 0 || end == p ? -1 : value;
}

static int owner_alive(struct rfm2ghandle_s *h, int node, long pid)
{
    const long long recorded = __atomic_load_n(i64(h, card(node) + C_OWNER_START), __ATOMIC_SEQ_CST);
    const long long actual = start_time(pid);
    return actual >= 0 && (recorded == 0 || recorded == actual);
}

/* ---------------------------------------------------------------------------------------- card claim, reset */

static void set_present(struct rfm2ghandle_s *h, int node, int present)
{
    int64_t *word = i64(h, H_PRESENT + (size_t)(node >> 6) * 8);
    const int64_t bit = (int64_t)1 << (node & 63);
    int64_t was = __atomic_load_n(word, __ATOMIC_SEQ_CST);
    while (!__atomic_compare_exchange_n(word, &was, present ? (was | bit) : (was & ~bit), 0, __ATOMIC_SEQ_CST,
        __ATOMIC_SEQ_CST))
    {
    }
}

static void init_card(struct rfm2ghandle_s *h, int node)
{
    const size_t c = card(node);
    __atomic_store_n(i64(h, c + C_OWNER_START), 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(i32(h, c + C_FLAGS), 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(i32(h, c + C_ENABLED), 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(i32(h, c + C_BOARD_ID), 0x65, __ATOMIC_SEQ_CST);
    memset(h->control + c + C_COUNTERS, 0, 128 * 8);
    for (int t = 0; t < TYPE_ID_LIMIT; t++)
    {
        const size_t f = fifo(node, t);
        __atomic_store_n(i64(h, f + F_HEAD), 0, __ATOMIC_SEQ_CST);
        __atomic_store_n(i64(h, f + F_TAIL), 0, __ATOMIC_SEQ_CST);
        __atomic_store_n(i32(h, f + F_WAITERS), 0, __ATOMIC_SEQ_CST);
        for (int i = 0; i < FIFO_SLOTS; i++)
        {
            __atomic_store_n(i64(h, entry(f, i) + E_SEQUENCE), i, __ATOMIC_SEQ_CST);
        }
    }
}

static int claim(struct rfm2ghandle_s *h, int node)
{
    const long self = (long)getpid();
    int64_t *pid = i64(h, card(node) + C_OWNER_PID);
    while (1)
    {
        int64_t owner = __atomic_load_n(pid, __ATOMIC_SEQ_CST);
        if (owner == self || (owner != 0 && owner_alive(h, node, (long)owner)))
        {
            return 0;
        }
        if (__atomic_compare_exchange_n(pid, &owner, self, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
        {
            init_card(h, node);
            __atomic_store_n(i64(h, card(node) + C_OWNER_START), start_time(self), __ATOMIC_SEQ_CST);
            __atomic_fetch_add(i32(h, card(node) + C_GENERATION), 1, __ATOMIC_SEQ_CST);
            set_present(h, node, 1);
            return 1;
        }
    }
}

static void release(struct rfm2ghandle_s *h, int node)
{
    set_present(h, node, 0);
    __atomic_store_n(i32(h, card(node) + C_ENABLED), 0, __ATOMIC_SEQ_CST);
    __atomic_fetch_add(i32(h, card(node) + C_GENERATION), 1, __ATOMIC_SEQ_CST);
    int64_t self = (int64_t)getpid();
    __atomic_compare_exchange_n(i64(h, card(node) + C_OWNER_PID), &self, 0, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}

/* -------------------------------------------------------------------------------------------- event FIFOs */

static void raise_line(struct rfm2ghandle_s *h, int node, int type)
{
    const size_t f = fifo(node, type);
    __atomic_fetch_add(i32(h, f + F_LINE), 1, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(i32(h, f + F_WAITERS), __ATOMIC_SEQ_CST) > 0)
    {
        syscall(SYS_futex, i32(h, f + F_LINE), FUTEX_WAKE, 0x7fffffff, NULL, NULL, 0);
        add_counter(h, node, K_INTERRUPTS_RAISED, 1);
    }
}

static int offer(struct rfm2ghandle_s *h, size_t f, int source, int data)
{
    while (1)
    {
        int64_t tail = __atomic_load_n(i64(h, f + F_TAIL), __ATOMIC_SEQ_CST);
        const int64_t head = __atomic_load_n(i64(h, f + F_HEAD), __ATOMIC_SEQ_CST);
        if (tail - head >= FIFO_CAPACITY)
        {
            return 0;
        }
        const size_t e = entry(f, tail);
        const int64_t sequence = __atomic_load_n(i64(h, e + E_SEQUENCE), __ATOMIC_ACQUIRE);
        if (sequence == tail)
        {
            if (__atomic_compare_exchange_n(i64(h, f + F_TAIL), &tail, tail + 1, 0, __ATOMIC_SEQ_CST,
                __ATOMIC_SEQ_CST))
            {
                *i64(h, e + E_ARRIVAL) = now_nanos();
                *i32(h, e + E_DATA) = data;
                *i32(h, e + E_SOURCE) = source;
                __atomic_store_n(i64(h, e + E_SEQUENCE), tail + 1, __ATOMIC_RELEASE);
                return 1;
            }
        }
        else if (sequence < tail)
        {
            return 0;
        }
    }
}

static void deliver(struct rfm2ghandle_s *h, int node, int type, int source, int data)
{
    int32_t *enabled = i32(h, card(node) + C_ENABLED);
    if ((__atomic_load_n(enabled, __ATOMIC_SEQ_CST) & (1 << type)) == 0)
    {
        add_counter(h, node, K_EVENTS_DISABLED + type, 1);
        return;
    }
    if (!offer(h, fifo(node, type), source, data))
    {
        add_counter(h, node, K_FIFO_OVERFLOWS + type, 1);
        if (type != T_RXFIFO_FULL)
        {
            deliver(h, node, T_RXFIFO_FULL, node, type);
        }
        return;
    }
    add_counter(h, node, K_EVENTS_RECEIVED + type, 1);
    if (type == T_BAD_DATA || type == T_SYNC_LOSS)
    {
        __atomic_fetch_and(enabled, ~(1 << type), __ATOMIC_SEQ_CST);
    }
    raise_line(h, node, type);
}

/* the holder's side: take the oldest entry */
static int poll_fifo(struct rfm2ghandle_s *h, int type, RFM2G_UINT32 *data, RFM2G_NODE *source)
{
    const size_t f = fifo(h->node, type);
    const int64_t head = __atomic_load_n(i64(h, f + F_HEAD), __ATOMIC_RELAXED);
    const size_t e = entry(f, head);
    if (__atomic_load_n(i64(h, e + E_SEQUENCE), __ATOMIC_ACQUIRE) != head + 1)
    {
        return 0;
    }
    const int64_t tail = __atomic_load_n(i64(h, f + F_TAIL), __ATOMIC_SEQ_CST);
    const RFM2G_UINT32 queued = (RFM2G_UINT32)(tail - head);
    if (queued > h->peak[type])
    {
        h->peak[type] = queued;
    }
    if (data != NULL)
    {
        *data = (RFM2G_UINT32)*i32(h, e + E_DATA);
        *source = (RFM2G_NODE)*i32(h, e + E_SOURCE);
    }
    __atomic_store_n(i64(h, e + E_SEQUENCE), head + FIFO_SLOTS, __ATOMIC_RELEASE);
    __atomic_store_n(i64(h, f + F_HEAD), head + 1, __ATOMIC_RELEASE);
    return 1;
}

static int queued(struct rfm2ghandle_s *h, int type)
{
    const size_t f = fifo(h->node, type);
    return (int)(__atomic_load_n(i64(h, f + F_TAIL), __ATOMIC_SEQ_CST) -
        __atomic_load_n(i64(h, f + F_HEAD), __ATOMIC_SEQ_CST));
}

/* ------------------------------------------------------------------------------------------- open / close */

static void unmap_all(struct rfm2ghandle_s *h)
{
    if (h->control != NULL && h->control != MAP_FAILED)
    {
        munmap(h->control, FILE_SIZE);
    }
    if (h->memory != NULL && h->memory != MAP_FAILED)
    {
        munmap(h->memory, h->memory_size);
    }
    if (h->dma != NULL && h->dma != MAP_FAILED)
    {
        munmap(h->dma, h->dma_size);
    }
    if (h->fd_control >= 0)
    {
        close(h->fd_control);
    }
    if (h->fd_memory >= 0)
    {
        close(h->fd_memory);
    }
}

/* reads the device file; every value bounded */
static int read_device(const char *path, char *network, size_t network_size, long *node, long *dma)
{
    FILE *in = fopen(path, "re");
    if (in == NULL)
    {
        return 0;
    }
    char line[512];
    int have_network = 0;
    *node = -1;
    *dma = 0;
    while (fgets(line, sizeof line, in) != NULL)
    {
        line[strcspn(line, "\r\n")] = 0;
        char *end;
        if (strncmp(line, "network=", 8) == 0 && strlen(line + 8) < network_size && line[8] != 0)
        {
            strcpy(network, line + 8);
            have_network = 1;
        }
        else if (strncmp(line, "node=", 5) == 0)
        {
            *node = strtol(line + 5, &end, 10);
            if (end == line + 5 || *end != 0)
            {
                *node = -1;
            }
        }
        else if (strncmp(line, "dmaBuffer=", 10) == 0)
        {
            *dma = strtol(line + 10, &end, 10);
            if (end == line + 10 || *end != 0 || *dma < 0 || *dma > (1L << 30))
            {
                *dma = -1;
            }
        }
    }
    fclose(in);
    return have_network && *node >= 0 && *node <= RFM2G_NODE_MAX && *dma >= 0;
}

RFM2G_STATUS RFM2gOpen(char *DevicePath, RFM2GHANDLE *rh)
{
    if (DevicePath == NULL)
    {
        return RFM2G_BAD_PARAMETER_1;
    }
    if (access(DevicePath, F_OK) != 0)
    {
        return RFM2G_NO_RFM2G_BOARD;
    }
    if (rh == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    char network[256];
    long node;
    long dma;
    if (!read_device(DevicePath, network, sizeof network, &node, &dma))
    {
        return RFM2G_NOT_OPEN;
    }
    struct rfm2ghandle_s *h = calloc(1, sizeof *h);
    if (h == NULL)
    {
        return RFM2G_LOW_MEMORY;
    }
    h->fd_control = -1;
    h->fd_memory = -1;
    char path[320];
    snprintf(path, sizeof path, "%s/control", network);
    h->fd_control = open(path, O_RDWR | O_CLOEXEC);
    snprintf(path, sizeof path, "%s/memory", network);
    h->fd_memory = open(path, O_RDWR | O_CLOEXEC);
    struct stat control_stat;
    struct stat memory_stat;
    if (h->fd_control < 0 || h->fd_memory < 0 || fstat(h->fd_control, &control_stat) != 0 ||
        fstat(h->fd_memory, &memory_stat) != 0 || (size_t)control_stat.st_size != FILE_SIZE)
    {
        unmap_all(h);
        free(h);
        return RFM2G_NOT_OPEN;
    }
    h->control = mmap(NULL, FILE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, h->fd_control, 0);
    if (h->control == MAP_FAILED)
    {
        unmap_all(h);
        free(h);
        return RFM2G_NOT_OPEN;
    }
    const int64_t memory_size = __atomic_load_n(i64(h, H_MEMORY_SIZE), __ATOMIC_ACQUIRE);
    if ((uint64_t)__atomic_load_n(i64(h, H_MAGIC), __ATOMIC_ACQUIRE) != MAGIC ||
        *i32(h, H_VERSION) != LAYOUT_VERSION || *i32(h, H_CARD_COUNT) != CARD_COUNT ||
        *i32(h, H_CARD_SIZE) != CARD_SIZE || memory_size != memory_stat.st_size || memory_size <= 0 ||
        memory_size > 0xFFFFFFFFLL)
    {
        unmap_all(h);
        free(h);
        return RFM2G_BAD_RFM2G_BOARD_ID;
    }
    h->memory_size = (uint64_t)memory_size;
    h->memory = mmap(NULL, h->memory_size, PROT_READ | PROT_WRITE, MAP_SHARED, h->fd_memory, 0);
    if (h->memory == MAP_FAILED)
    {
        unmap_all(h);
        free(h);
        return RFM2G_NOT_OPEN;
    }
    if (dma > 0)
    {
        h->dma_size = ((size_t)dma + PAGE - 1) & ~(size_t)(PAGE - 1);
        h->dma = mmap(NULL, h->dma_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (h->dma == MAP_FAILED)
        {
            unmap_all(h);
            free(h);
            return RFM2G_LOW_MEMORY;
        }
    }
    h->node = (int)node;
    if (!claim(h, h->node))
    {
        unmap_all(h);
        free(h);
        return RFM2G_NOT_OPEN;
    }
    snprintf(h->device, sizeof h->device, "%s", DevicePath);
    h->threshold = 0xFFFFFFFFu;
    pthread_mutex_init(&h->dma_lock, NULL);
    h->struct_id = STRUCT_ID;
    int slot = -1;
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < MAX_HANDLES && slot < 0; i++)
    {
        if (registry[i] == NULL)
        {
            registry[i] = h;
            slot = i;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    if (slot < 0)
    {
        release(h, h->node);
        unmap_all(h);
        free(h);
        return RFM2G_LOW_MEMORY;
    }
    *rh = h;
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gClose(RFM2GHANDLE *rh)
{
    if (rh == NULL)
    {
        return RFM2G_BAD_PARAMETER_1;
    }
    const RFM2G_STATUS stat = check_handle(*rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    struct rfm2ghandle_s *h = *rh;
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < MAX_HANDLES; i++)
    {
        if (registry[i] == h)
        {
            registry[i] = NULL;
        }
    }
    pthread_mutex_unlock(&registry_lock);
    release(h, h->node);
    h->struct_id = 0;
    unmap_all(h);
    pthread_mutex_destroy(&h->dma_lock);
    free(h);
    *rh = NULL;
    return RFM2G_SUCCESS;
}

/* ------------------------------------------------------------------------------------------- configuration */

RFM2G_STATUS RFM2gGetConfig(RFM2GHANDLE rh, RFM2GCONFIG *Config)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (Config == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    memset(Config, 0, sizeof *Config);
    Config->NodeId = (RFM2G_NODE)rh->node;
    Config->BoardId = 0x65;
    Config->MemorySize = (RFM2G_UINT32)rh->memory_size;
    snprintf(Config->Device, sizeof Config->Device, "%s", rh->device);
    snprintf(Config->Name, sizeof Config->Name, "%s", "rfmrt stand-in PCIE-5565");
    snprintf(Config->DriverVersion, sizeof Config->DriverVersion, "%s", STANDIN_VERSION);
    Config->BoardRevision = 1;
    Config->BuildId = 7;
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gUserMemory(RFM2GHANDLE rh, volatile void **UserMemoryPtr, RFM2G_UINT64 Offset,
    RFM2G_UINT32 Pages)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (UserMemoryPtr == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    if (Pages == 0)
    {
        return RFM2G_BAD_PARAMETER_4;
    }
    const uint64_t bytes = (uint64_t)Pages * PAGE;
    if (Offset & RFM2G_DMA_MMAP_OFFSET)
    {
        /* the physical address of the reserved buffer rides in the offset; the stand-in has one buffer */
        if (rh->dma == NULL)
        {
            return RFM2G_MEM_NOT_MAPPED;
        }
        if (bytes > rh->dma_size)
        {
            return RFM2G_OUT_OF_RANGE;
        }
        *UserMemoryPtr = rh->dma;
        return RFM2G_SUCCESS;
    }
    if (Offset & (RFM2G_BAR0_MMAP_OFFSET | RFM2G_BAR2_MMAP_OFFSET))
    {
        return RFM2G_NOT_SUPPORTED;
    }
    if ((Offset & (PAGE - 1)) != 0)
    {
        return RFM2G_BAD_PARAMETER_3;
    }
    if (bytes > rh->memory_size || Offset + bytes > rh->memory_size)
    {
        return RFM2G_OUT_OF_RANGE;
    }
    *UserMemoryPtr = rh->memory + Offset;
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gUserMemoryBytes(RFM2GHANDLE rh, volatile void **UserMemoryPtr, RFM2G_UINT64 Offset,
    RFM2G_UINT32 Bytes)
{
    if (Bytes == 0)
    {
        return RFM2G_BAD_PARAMETER_4;
    }
    return RFM2gUserMemory(rh, UserMemoryPtr, Offset, Bytes / PAGE + (Bytes % PAGE > 0 ? 1 : 0));
}

RFM2G_STATUS RFM2gUnMapUserMemory(RFM2GHANDLE rh, volatile void **UserMemoryPtr, RFM2G_UINT32 Pages)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (UserMemoryPtr == NULL || *UserMemoryPtr == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    if (Pages == 0)
    {
        return RFM2G_BAD_PARAMETER_3;
    }
    /* the stand-in's mappings live until RFM2gClose */
    *UserMemoryPtr = NULL;
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gUnMapUserMemoryBytes(RFM2GHANDLE rh, volatile void **UserMemoryPtr, RFM2G_UINT32 Bytes)
{
    if (Bytes == 0)
    {
        return RFM2G_BAD_PARAMETER_3;
    }
    return RFM2gUnMapUserMemory(rh, UserMemoryPtr, Bytes / PAGE + (Bytes % PAGE > 0 ? 1 : 0));
}

RFM2G_STATUS RFM2gNodeID(RFM2GHANDLE rh, RFM2G_NODE *NodeIdPtr)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (NodeIdPtr == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    *NodeIdPtr = (RFM2G_NODE)rh->node;
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gBoardID(RFM2GHANDLE rh, RFM2G_UINT8 *BoardIdPtr)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (BoardIdPtr == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    *BoardIdPtr = 0x65;
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gSize(RFM2GHANDLE rh, RFM2G_UINT32 *SizePtr)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (SizePtr == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    *SizePtr = (RFM2G_UINT32)rh->memory_size;
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gFirst(RFM2GHANDLE rh, RFM2G_UINT32 *FirstPtr)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (FirstPtr == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    *FirstPtr = 0;
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gDeviceName(RFM2GHANDLE rh, char *NamePtr)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (NamePtr == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    strcpy(NamePtr, rh->device);
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gDriverVersion(RFM2GHANDLE rh, char *VersionPtr)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (VersionPtr == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    strcpy(VersionPtr, STANDIN_VERSION);
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gGetDMAThreshold(RFM2GHANDLE rh, RFM2G_UINT32 *Threshold)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (Threshold == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    *Threshold = rh->threshold;
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gSetDMAThreshold(RFM2GHANDLE rh, RFM2G_UINT32 Threshold)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    rh->threshold = Threshold;
    return RFM2G_SUCCESS;
}

/* ------------------------------------------------------------------------------------------- data transfer */

static int in_dma(struct rfm2ghandle_s *h, const void *buffer, RFM2G_UINT32 length)
{
    const uint8_t *p = buffer;
    return h->dma != NULL && p >= h->dma && p + length <= h->dma + h->dma_size;
}

RFM2G_STATUS RFM2gRead(RFM2GHANDLE rh, RFM2G_UINT32 Offset, void *Buffer, RFM2G_UINT32 Length)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if ((uint64_t)Offset + Length > rh->memory_size)
    {
        return RFM2G_OUT_OF_RANGE;
    }
    if (Buffer == NULL)
    {
        return RFM2G_BAD_PARAMETER_3;
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    if (Length >= rh->threshold && in_dma(rh, Buffer, Length) && (Offset & 3) == 0 && (Length & 3) == 0)
    {
        /* one DMA at a time, as the driver's semaphore */
        pthread_mutex_lock(&rh->dma_lock);
        memcpy(Buffer, rh->memory + Offset, Length);
        rh->dma_reads++;
        pthread_mutex_unlock(&rh->dma_lock);
    }
    else
    {
        memcpy(Buffer, rh->memory + Offset, Length);
        __atomic_fetch_add(&rh->pio_reads, 1, __ATOMIC_RELAXED);
    }
    __atomic_thread_fence(__ATOMIC_ACQUIRE);
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gWrite(RFM2GHANDLE rh, RFM2G_UINT32 Offset, void *Buffer, RFM2G_UINT32 Length)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if ((uint64_t)Offset + Length > rh->memory_size)
    {
        return RFM2G_OUT_OF_RANGE;
    }
    if (Buffer == NULL)
    {
        return RFM2G_BAD_PARAMETER_3;
    }
    __atomic_thread_fence(__ATOMIC_RELEASE);
    if (Length >= rh->threshold && in_dma(rh, Buffer, Length) && (Offset & 3) == 0 && (Length & 3) == 0)
    {
        pthread_mutex_lock(&rh->dma_lock);
        memcpy(rh->memory + Offset, Buffer, Length);
        rh->dma_writes++;
        pthread_mutex_unlock(&rh->dma_lock);
    }
    else
    {
        memcpy(rh->memory + Offset, Buffer, Length);
        __atomic_fetch_add(&rh->pio_writes, 1, __ATOMIC_RELAXED);
    }
    __atomic_thread_fence(__ATOMIC_RELEASE);
    return RFM2G_SUCCESS;
}

static RFM2G_STATUS atomic_check(RFM2GHANDLE rh, RFM2G_UINT32 Offset, RFM2G_UINT32 width)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if ((uint64_t)Offset > rh->memory_size - width)
    {
        return RFM2G_OUT_OF_RANGE;
    }
    if ((Offset & (width - 1)) != 0)
    {
        return RFM2G_UNALIGNED_OFFSET;
    }
    return RFM2G_SUCCESS;
}

#define PEEK(NAME, TYPE)                                                                   \
    RFM2G_STATUS NAME(RFM2GHANDLE rh, RFM2G_UINT32 Offset, TYPE *Value)                    \
    {                                                                                      \
        RFM2G_STATUS stat = check_handle(rh);                                              \
        if (stat == RFM2G_SUCCESS && Value == NULL)                                        \
        {                                                                                  \
            return RFM2G_BAD_PARAMETER_3;                                                  \
        }                                                                                  \
        stat = atomic_check(rh, Offset, sizeof(TYPE));                                     \
        if (stat != RFM2G_SUCCESS)                                                         \
        {                                                                                  \
            return stat;                                                                   \
        }                                                                                  \
        *Value = __atomic_load_n((TYPE *)(rh->memory + Offset), __ATOMIC_SEQ_CST);         \
        return RFM2G_SUCCESS;                                                              \
    }

#define POKE(NAME, TYPE)                                                                   \
    RFM2G_STATUS NAME(RFM2GHANDLE rh, RFM2G_UINT32 Offset, TYPE Value)                     \
    {                                                                                      \
        const RFM2G_STATUS stat = atomic_check(rh, Offset, sizeof(TYPE));                  \
        if (stat != RFM2G_SUCCESS)                                                         \
        {                                                                                  \
            return stat;                                                                   \
        }                                                                                  \
        __atomic_store_n((TYPE *)(rh->memory + Offset), Value, __ATOMIC_SEQ_CST);          \
        return RFM2G_SUCCESS;                                                              \
    }

PEEK(RFM2gPeek8, RFM2G_UINT8)
PEEK(RFM2gPeek16, RFM2G_UINT16)
PEEK(RFM2gPeek32, RFM2G_UINT32)
PEEK(RFM2gPeek64, RFM2G_UINT64)
POKE(RFM2gPoke8, RFM2G_UINT8)
POKE(RFM2gPoke16, RFM2G_UINT16)
POKE(RFM2gPoke32, RFM2G_UINT32)
POKE(RFM2gPoke64, RFM2G_UINT64)

RFM2G_STATUS rfmrtStandinTransfers(RFM2GHANDLE rh, RFM2G_UINT64 *dmaReads, RFM2G_UINT64 *pioReads,
    RFM2G_UINT64 *dmaWrites, RFM2G_UINT64 *pioWrites)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    pthread_mutex_lock(&rh->dma_lock);
    *dmaReads = rh->dma_reads;
    *dmaWrites = rh->dma_writes;
    pthread_mutex_unlock(&rh->dma_lock);
    *pioReads = __atomic_load_n(&rh->pio_reads, __ATOMIC_RELAXED);
    *pioWrites = __atomic_load_n(&rh->pio_writes, __ATOMIC_RELAXED);
    return RFM2G_SUCCESS;
}

/* ----------------------------------------------------------------------------------------------- events */

RFM2G_STATUS RFM2gEnableEvent(RFM2GHANDLE rh, RFM2GEVENTTYPE EventType)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (!valid_event((int)EventType))
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    const int t = fifo_of((int)EventType);
    if (t < 0)
    {
        return RFM2G_NOT_SUPPORTED;
    }
    const int32_t was = __atomic_fetch_or(i32(rh, card(rh->node) + C_ENABLED), 1 << t, __ATOMIC_SEQ_CST);
    return (was & (1 << t)) ? RFM2G_EVENT_IN_USE : RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gDisableEvent(RFM2GHANDLE rh, RFM2GEVENTTYPE EventType)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (!valid_event((int)EventType))
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    const int t = fifo_of((int)EventType);
    if (t < 0)
    {
        return RFM2G_NOT_SUPPORTED;
    }
    const int32_t was = __atomic_fetch_and(i32(rh, card(rh->node) + C_ENABLED), ~(1 << t), __ATOMIC_SEQ_CST);
    return (was & (1 << t)) ? RFM2G_SUCCESS : RFM2G_NOT_ENABLED;
}

RFM2G_STATUS RFM2gSendEvent(RFM2GHANDLE rh, RFM2G_NODE ToNode, RFM2GEVENTTYPE EventType,
    RFM2G_UINT32 ExtendedData)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if ((int)EventType < RFM2GEVENT_RESET || (int)EventType > RFM2GEVENT_INTR4)
    {
        return RFM2G_BAD_PARAMETER_3;
    }
    if (ToNode == rh->node)
    {
        return RFM2G_NODE_ID_SELF;
    }
    if (ToNode > RFM2G_NODE_MAX && ToNode != RFM2G_NODE_ALL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    const int t = (int)EventType;
    if (__atomic_load_n(i32(rh, H_LINK_STATE), __ATOMIC_SEQ_CST) == 0)
    {
        add_counter(rh, rh->node, K_SENDS_REFUSED, 1);
        return RFM2G_LINK_TEST_FAIL;
    }
    const int32_t flags = __atomic_load_n(i32(rh, card(rh->node) + C_FLAGS), __ATOMIC_SEQ_CST);
    if (flags & FLAG_TRANSMIT_OFF)
    {
        add_counter(rh, rh->node, K_SENDS_REFUSED, 1);
        return RFM2G_DRIVER_ERROR;
    }
    /* every write this thread made before is visible before the event */
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (ToNode == RFM2G_NODE_ALL)
    {
        for (int n = 0; n < CARD_COUNT; n++)
        {
            const int64_t bits = __atomic_load_n(i64(rh, H_PRESENT + (size_t)(n >> 6) * 8), __ATOMIC_SEQ_CST);
            if ((bits & ((int64_t)1 << (n & 63))) != 0 && (n != rh->node || (flags & FLAG_LOOPBACK)))
            {
                deliver(rh, n, t, rh->node, (int)ExtendedData);
            }
        }
    }
    else
    {
        const int64_t bits = __atomic_load_n(i64(rh, H_PRESENT + (size_t)(ToNode >> 6) * 8), __ATOMIC_SEQ_CST);
        if ((bits & ((int64_t)1 << (ToNode & 63))) != 0)
        {
            deliver(rh, ToNode, t, rh->node, (int)ExtendedData);
        }
        else
        {
            add_counter(rh, rh->node, K_SENDS_UNDELIVERED, 1);
        }
    }
    add_counter(rh, rh->node, K_EVENTS_SENT + t, 1);
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gWaitForEvent(RFM2GHANDLE rh, RFM2GEVENTINFO *EventInfo)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (EventInfo == NULL || !valid_event((int)EventInfo->Event))
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    const int t = fifo_of((int)EventInfo->Event);
    if (t < 0)
    {
        return RFM2G_NOT_SUPPORTED;
    }
    const int32_t enabled = __atomic_load_n(i32(rh, card(rh->node) + C_ENABLED), __ATOMIC_SEQ_CST);
    if ((enabled & (1 << t)) == 0 && queued(rh, t) == 0)
    {
        return RFM2G_NOT_ENABLED;
    }
    int idle = 0;
    if (!__atomic_compare_exchange_n(&rh->waiting[t], &idle, 1, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
    {
        return RFM2G_EVENT_IN_USE;
    }
    const RFM2G_UINT32 timeout = EventInfo->Timeout;
    rh->last_timeout[t] = timeout;
    /* as the Linux driver: milliseconds to jiffies (HZ 250, Debian's), at least one, even for RFM2G_NO_WAIT */
    int64_t ticks = (int64_t)timeout * STANDIN_HZ / 1000;
    if (ticks == 0)
    {
        ticks = 1;
    }
    const int64_t deadline = timeout == RFM2G_INFINITE_TIMEOUT ? 0 :
        now_nanos() + ticks * (1000000000LL / STANDIN_HZ);
    const size_t f = fifo(rh->node, t);
    RFM2G_STATUS result;
    while (1)
    {
        if (poll_fifo(rh, t, &EventInfo->ExtendedInfo, &EventInfo->NodeId))
        {
            result = RFM2G_SUCCESS;
            break;
        }
        if (__atomic_exchange_n(&rh->cancelled[t], 0, __ATOMIC_SEQ_CST))
        {
            add_counter(rh, rh->node, K_AWAIT_CANCELS, 1);
            result = RFM2G_WAIT_EVENT_CANCELED;
            break;
        }
        struct timespec remaining;
        struct timespec *limit = NULL;
        if (timeout != RFM2G_INFINITE_TIMEOUT)
        {
            const int64_t left = deadline - now_nanos();
            if (left <= 0)
            {
                add_counter(rh, rh->node, K_AWAIT_TIMEOUTS, 1);
                result = RFM2G_TIMED_OUT;
                break;
            }
            remaining.tv_sec = left / 1000000000LL;
            remaining.tv_nsec = left % 1000000000LL;
            limit = &remaining;
        }
        __atomic_fetch_add(i32(rh, f + F_WAITERS), 1, __ATOMIC_SEQ_CST);
        const int32_t line = __atomic_load_n(i32(rh, f + F_LINE), __ATOMIC_SEQ_CST);
        if (poll_fifo(rh, t, &EventInfo->ExtendedInfo, &EventInfo->NodeId))
        {
            __atomic_fetch_sub(i32(rh, f + F_WAITERS), 1, __ATOMIC_SEQ_CST);
            result = RFM2G_SUCCESS;
            break;
        }
        if (!__atomic_load_n(&rh->cancelled[t], __ATOMIC_SEQ_CST))
        {
            syscall(SYS_futex, i32(rh, f + F_LINE), FUTEX_WAIT, line, limit, NULL, 0);
        }
        __atomic_fetch_sub(i32(rh, f + F_WAITERS), 1, __ATOMIC_SEQ_CST);
    }
    __atomic_store_n(&rh->waiting[t], 0, __ATOMIC_SEQ_CST);
    return result;
}

RFM2G_STATUS RFM2gCancelWaitForEvent(RFM2GHANDLE rh, RFM2GEVENTTYPE EventType)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (!valid_event((int)EventType))
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    const int t = fifo_of((int)EventType);
    if (t < 0)
    {
        return RFM2G_NOT_SUPPORTED;
    }
    if (!__atomic_load_n(&rh->waiting[t], __ATOMIC_SEQ_CST))
    {
        return RFM2G_EVENT_NOT_IN_USE;
    }
    __atomic_store_n(&rh->cancelled[t], 1, __ATOMIC_SEQ_CST);
    raise_line(rh, rh->node, t);
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gClearEvent(RFM2GHANDLE rh, RFM2GEVENTTYPE EventType)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (!valid_event((int)EventType) && EventType != RFM2GEVENT_LAST)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    for (int v = 0; v < RFM2GEVENT_LAST; v++)
    {
        const int t = fifo_of(v);
        if (t >= 0 && (EventType == RFM2GEVENT_LAST || v == (int)EventType))
        {
            while (poll_fifo(rh, t, NULL, NULL))
            {
            }
        }
    }
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gClearEventCount(RFM2GHANDLE rh, RFM2GEVENTTYPE EventType)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (!valid_event((int)EventType) && EventType != RFM2GEVENT_LAST)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    for (int v = 0; v < RFM2GEVENT_LAST; v++)
    {
        const int t = fifo_of(v);
        if (t >= 0 && (EventType == RFM2GEVENT_LAST || v == (int)EventType))
        {
            __atomic_store_n(i64(rh, card(rh->node) + C_COUNTERS + (size_t)(K_EVENTS_RECEIVED + t) * 8), 0,
                __ATOMIC_SEQ_CST);
        }
    }
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gGetEventCount(RFM2GHANDLE rh, RFM2GEVENTTYPE EventType, RFM2G_UINT32 *Count)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (!valid_event((int)EventType))
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    if (Count == NULL)
    {
        return RFM2G_BAD_PARAMETER_3;
    }
    const int t = fifo_of((int)EventType);
    *Count = t < 0 ? 0 : (RFM2G_UINT32)counter(rh, rh->node, K_EVENTS_RECEIVED + t);
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gGetEventStats(RFM2GHANDLE rh, RFM2GQINFO *Qinfo)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (Qinfo == NULL || !valid_event((int)Qinfo->Event))
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    const int t = fifo_of((int)Qinfo->Event);
    if (t < 0)
    {
        return RFM2G_NOT_SUPPORTED;
    }
    Qinfo->Overflowed = counter(rh, rh->node, K_FIFO_OVERFLOWS + t) > 0 ? RFM2G_TRUE : RFM2G_FALSE;
    Qinfo->QueuePeak = (RFM2G_UINT8)(rh->peak[t] > 255 ? 255 : rh->peak[t]);
    Qinfo->EventCount = (RFM2G_UINT32)counter(rh, rh->node, K_EVENTS_RECEIVED + t);
    Qinfo->EventsQueued = (RFM2G_UINT32)queued(rh, t);
    Qinfo->QueueSize = FIFO_CAPACITY;
    Qinfo->MaxQueueSize = FIFO_CAPACITY;
    Qinfo->EventTimeout = rh->last_timeout[t];
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gClearEventStats(RFM2GHANDLE rh, RFM2GEVENTTYPE EventType)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (!valid_event((int)EventType))
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    const int t = fifo_of((int)EventType);
    if (t >= 0)
    {
        rh->peak[t] = 0;
        __atomic_store_n(i64(rh, card(rh->node) + C_COUNTERS + (size_t)(K_FIFO_OVERFLOWS + t) * 8), 0,
            __ATOMIC_SEQ_CST);
    }
    return RFM2G_SUCCESS;
}

/* ------------------------------------------------------------------------------------------------ utility */

static const char *const messages[RFM2G_MAX_ERROR_CODE + 1] = {
    "no error",
    "capability not implemented",
    "driver error",
    "the wait timed out",
    "out of memory",
    "memory is not mapped",
    "operating system error",
    "another thread waits for this event",
    "capability not supported by this board",
    "device could not be opened",
    "no RFM2g board at that device path",
    "parameter 1 is invalid",
    "parameter 2 is invalid",
    "parameter 3 is invalid",
    "parameter 4 is invalid",
    "parameter 5 is invalid",
    "parameter 6 is invalid",
    "parameter 7 is invalid",
    "parameter 8 is invalid",
    "parameter 9 is invalid",
    "offset or length beyond the board's memory",
    "mapping that offset is not allowed",
    "the ring is open",
    "memory is read only",
    "offset is not aligned for the access width",
    "address is not aligned for the access width",
    "seek failed",
    "read failed",
    "write failed",
    "handle is not null",
    "driver module not loaded",
    "event is not enabled",
    "event is already enabled",
    "nobody waits for this event",
    "not an RFM2g board",
    "handle is null",
    "the wait was cancelled",
    "DMA failed",
    "not initialized",
    "length is not 4-byte aligned",
    "interrupted by a signal",
    "cannot send an event to this node itself",
    "unknown status code",
};

char *RFM2gErrorMsg(RFM2G_STATUS ErrorCode)
{
    int code = (int)ErrorCode;
    if (code < 0 || code > RFM2G_MAX_ERROR_CODE)
    {
        code = RFM2G_MAX_ERROR_CODE;
    }
    return (char *)messages[code];
}

static RFM2G_STATUS get_flag(RFM2GHANDLE rh, RFM2G_BOOL *out, int flag, int inverted)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    if (out == NULL)
    {
        return RFM2G_BAD_PARAMETER_2;
    }
    const int set = (__atomic_load_n(i32(rh, card(rh->node) + C_FLAGS), __ATOMIC_SEQ_CST) & flag) != 0;
    *out = (set != inverted) ? RFM2G_TRUE : RFM2G_FALSE;
    return RFM2G_SUCCESS;
}

static RFM2G_STATUS set_flag(RFM2GHANDLE rh, RFM2G_BOOL on, int flag, int inverted)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    int32_t *flags = i32(rh, card(rh->node) + C_FLAGS);
    if ((on != RFM2G_FALSE) != inverted)
    {
        __atomic_fetch_or(flags, flag, __ATOMIC_SEQ_CST);
    }
    else
    {
        __atomic_fetch_and(flags, ~flag, __ATOMIC_SEQ_CST);
    }
    return RFM2G_SUCCESS;
}

RFM2G_STATUS RFM2gGetLed(RFM2GHANDLE rh, RFM2G_BOOL *Led)
{
    return get_flag(rh, Led, FLAG_LED, 0);
}

RFM2G_STATUS RFM2gSetLed(RFM2GHANDLE rh, RFM2G_BOOL Led)
{
    return set_flag(rh, Led, FLAG_LED, 0);
}

RFM2G_STATUS RFM2gGetTransmit(RFM2GHANDLE rh, RFM2G_BOOL *state)
{
    return get_flag(rh, state, FLAG_TRANSMIT_OFF, 1);
}

RFM2G_STATUS RFM2gSetTransmit(RFM2GHANDLE rh, RFM2G_BOOL state)
{
    return set_flag(rh, state, FLAG_TRANSMIT_OFF, 1);
}

RFM2G_STATUS RFM2gGetLoopback(RFM2GHANDLE rh, RFM2G_BOOL *state)
{
    return get_flag(rh, state, FLAG_LOOPBACK, 0);
}

RFM2G_STATUS RFM2gSetLoopback(RFM2GHANDLE rh, RFM2G_BOOL state)
{
    return set_flag(rh, state, FLAG_LOOPBACK, 0);
}

RFM2G_STATUS RFM2gCheckRingCont(RFM2GHANDLE rh)
{
    const RFM2G_STATUS stat = check_handle(rh);
    if (stat != RFM2G_SUCCESS)
    {
        return stat;
    }
    return __atomic_load_n(i32(rh, H_LINK_STATE), __ATOMIC_SEQ_CST) != 0 ? RFM2G_SUCCESS : RFM2G_LINK_TEST_FAIL;
}
