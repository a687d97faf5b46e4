/* Blocks that fault outside the windows they are lent out in. See guarded_block.h. */
#define _GNU_SOURCE
#include "guarded_block.h"

#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { CAPACITY = 16 };

typedef struct {
  char *base; /* NULL: a free entry */
  size_t length;
  const char *what;
  int state; /* 0 closed, 1 readable, 2 writable */
} guarded;

static guarded blocks[CAPACITY];
static struct sigaction previous;
static int installed;

static void put(const char *text) {
  size_t length = strlen(text);
  while (length > 0) {
    ssize_t wrote = write(2, text, length);
    if (wrote <= 0) return;
    text += wrote;
    length -= (size_t)wrote;
  }
}

static void on_fault(int signal, siginfo_t *info, void *context) {
  char *address = info->si_addr;
  for (int i = 0; i < CAPACITY; i++) {
    guarded *block = &blocks[i];
    if (!block->base || address < block->base || address >= block->base + block->length) continue;
    put("\npatchbay: the plugin ");
    if (__atomic_load_n(&block->state, __ATOMIC_RELAXED) == 1) {
      put("wrote to ");
      put(block->what);
      put(", which it may only read: copy what it needs to change.\n");
    } else {
      put("touched ");
      put(block->what);
      put(" while it was not lent out: the pointer is valid only during the call that gets "
          "it, so copy what the plugin keeps.\n");
    }
    _exit(3);
  }
  /* Not ours: the handler before this one takes it (the default one re-raises). */
  sigaction(signal, &previous, NULL);
  (void)context;
}

static void install(void) {
  if (installed) return;
  struct sigaction action;
  memset(&action, 0, sizeof action);
  action.sa_sigaction = on_fault;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  sigaction(SIGSEGV, &action, &previous);
  installed = 1;
}

static guarded *find(void *base) {
  for (int i = 0; i < CAPACITY; i++) {
    if (blocks[i].base == base && base) return &blocks[i];
  }
  return NULL;
}

void *pb_guarded_allocate(size_t size, const char *what) {
  install();
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t length = (size > 0 ? size + page - 1 : page) / page * page;
  for (int i = 0; i < CAPACITY; i++) {
    if (blocks[i].base) continue;
    void *base = mmap(NULL, length, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    blocks[i] = (guarded){base, length, what, 0};
    return base;
  }
  return NULL;
}

void pb_guarded_open(void *base, int writable) {
  guarded *block = find(base);
  if (!block) return;
  mprotect(block->base, block->length, writable ? PROT_READ | PROT_WRITE : PROT_READ);
  __atomic_store_n(&block->state, writable ? 2 : 1, __ATOMIC_RELAXED);
}

void pb_guarded_close(void *base) {
  guarded *block = find(base);
  if (!block) return;
  __atomic_store_n(&block->state, 0, __ATOMIC_RELAXED);
  mprotect(block->base, block->length, PROT_NONE);
}

void pb_guarded_free(void *base) {
  guarded *block = find(base);
  if (!block) return;
  munmap(block->base, block->length);
  block->base = NULL;
}
