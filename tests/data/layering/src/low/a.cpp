#include "tenet/high/b.hpp"  // upward
