#ifndef CPNGSHIM_H
#define CPNGSHIM_H
#include <stddef.h>
#include <stdint.h>
#endif
