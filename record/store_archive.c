/* store_archive.c — a tournament's record rows out and in (store.h). */
#include "store_int.h"
