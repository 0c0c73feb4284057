-- collide2d-scm-1.rockspec - the Lua module as a rock: `luarocks make` in a checkout builds the
-- binding (lua/*.c) with the core (src/*.c) compiled in, as the Makefile's `lua` target does, for
-- whichever Lua luarocks targets (5.1, LuaJIT, 5.4). `luarocks test` runs the busted specs.
-- The sources are listed by hand (builtin builds do not glob): spec/suites/38-rockspec.sh fails when
-- this list and lua/*.c plus src/*.c disagree. The builtin build runs no make, so lua/ffi_chunk.h (made
-- from lua/ffi.lua) is committed.
rockspec_format = '3.0'
package = 'collide2d'
version = 'scm-1'

source = {
  url = 'git+https://github.com/collide2d/collide2d.git',
}

description = {
  summary = 'Exact 2D collision detection for games, native and garbage-free',
  detailed = [[
SAT overlap and contact manifolds (normal, depth, points) for circles, rotated rectangles, convex
polygons, capsules and segments; distance, point and ray queries. A thin binding over a C99 core in
double precision, for Lua 5.1-5.4, LuaJIT and LÖVE 11: hot calls return plain numbers and create no
garbage.]],
  homepage = 'https://github.com/collide2d/collide2d',
  license = 'MIT',
  labels = { 'gamedev', 'love', 'collision', 'geometry' },
}

dependencies = {
  'lua >= 5.1',
}

build = {
  type = 'builtin',
  modules = {
    collide2d = {
      sources = {
        'lua/character.c',
        'lua/collide2d.c',
        'lua/errors.c',
        'lua/ffi.c',
        'lua/moves.c',
        'lua/queries.c',
        'lua/setqueries.c',
        'lua/sets.c',
        'lua/setshapes.c',
        'lua/shapes.c',
        'lua/worldcalls.c',
        'lua/worlds.c',
        'src/balls.c',
        'src/character.c',
        'src/closest.c',
        'src/collide.c',
        'src/compound.c',
        'src/compoundcontact.c',
        'src/compoundmove.c',
        'src/compoundquery.c',
        'src/compoundset.c',
        'src/compoundsweep.c',
        'src/decompose.c',
        'src/distance.c',
        'src/engine.c',
        'src/hull.c',
        'src/pairs.c',
        'src/predicates.c',
        'src/pushout.c',
        'src/query.c',
        'src/resolve.c',
        'src/run.c',
        'src/sat.c',
        'src/seams.c',
        'src/setquery.c',
        'src/shape.c',
        'src/staticset.c',
        'src/sweep.c',
        'src/tree.c',
        'src/trig.c',
        'src/turnsweep.c',
        'src/world.c',
        'src/worldmove.c',
        'src/worldpairs.c',
        'src/worldquery.c',
      },
      -- The core is compiled into the module, not linked from libcollide2d.so.
      defines = { 'C2D_STATIC' },
      incdirs = { 'include' },
      libraries = { 'm' },
    },
  },
}

test_dependencies = {
  'busted',
}

test = {
  type = 'busted',
}
