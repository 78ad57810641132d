#include "tenet/low/a.hpp"
