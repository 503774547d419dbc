#include "CPNGShim.h"
