/* arb_banned.h — libc calls arbiter does not use, made compile errors
 * (after git's banned.h). meson force-includes this file into every C file
 * (-include, the top meson.build), after the system headers that declare
 * them. Use instead:
 *   atoi, atol, atoll, atof  arb_parse_int/_ll/_double (arb_num.h): the whole
 *                            string, a range, an error; arb_cell_int/_float
 *                            for what PostgreSQL prints
 *   strtok                   strtok_r
 *   strcat, strcpy, sprintf, vsprintf   snprintf, arb_buf (bounded)
 *   gets                     fgets, getline
 *   system                   posix_spawn with an argv; arb_remove_tree
 *                            (arb_file.h) for rm -rf
 * No file of the tree uses them; there is no escape hatch. */
#ifndef ARB_BANNED_H
#define ARB_BANNED_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#pragma GCC poison atoi atol atoll atof strtok strcat strcpy sprintf vsprintf gets
/* system is also a word for a rating system (rating.h): only a call is
 * banned, as git's banned.h does it. */
#define system(...) arb_banned_system_use_posix_spawn_or_arb_remove_tree
#endif
