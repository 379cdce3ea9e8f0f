// Swift module shim for the GNU process-spawning extras of glibc (≥ 2.34),
// used by the tests' child-process harness (Tests/ProcessHarness).
//
// glibc declares the functions below only under _GNU_SOURCE, and Swift's
// Glibc module is built without it, so Swift cannot see them although the
// library has them. Redeclaring their exact glibc prototypes here makes them
// callable; nothing else is wrapped.
#ifndef WEBSITEDATA_CSPAWN_SHIM_H
#define WEBSITEDATA_CSPAWN_SHIM_H

#include <linux/memfd.h>  // MFD_CLOEXEC
#include <spawn.h>

/// posix_spawn_file_actions_addchdir_np(3) (glibc 2.29): the child changes
/// to `path` before it runs the program.
extern int posix_spawn_file_actions_addchdir_np(
    posix_spawn_file_actions_t *__restrict actions, const char *__restrict path);

/// posix_spawn_file_actions_addclosefrom_np(3) (glibc 2.34): the child
/// closes every descriptor from `from` up before it runs the program.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/// pipe2(2) (glibc 2.9), for pipes made with O_CLOEXEC in one step.
extern int pipe2(int pipedes[2], int flags);

/// memfd_create(2) (glibc 2.27): an anonymous file in memory.
extern int memfd_create(const char *name, unsigned int flags);

#endif
