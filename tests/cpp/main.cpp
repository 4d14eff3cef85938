// Catch2's main, compiled once in its own translation unit (the slowest unit to build).
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
