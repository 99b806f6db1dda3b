#include <lz4frame.h>
