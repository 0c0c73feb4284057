/*
 * ffi.c - the LuaJIT fast path: C entry points for the hot shape calls, and the installer that runs
 * lua/ffi.lua (embedded as lua/ffi_chunk.h) to put wrappers that call them through the FFI into the
 * module table. Built against Lua 5.1 headers only.
 */
#include <stdlib.h>
#include <string.h>

#include "binding.h"

/* ---- the LuaJIT fast path ---------------------------------------------------------------------- */

/*
 * Under LuaJIT, a call to a classic C function aborts the trace being compiled, so a game loop that
 * calls collide or overlaps runs interpreted around every call, and a pure-Lua SAT can beat the
 * native code. FFI calls do get compiled. So, only under LuaJIT with the ffi module (and the JIT on
 * when the module is loaded), luaopen_collide2d runs lua/ffi.lua, which replaces the hot functions with
 * Lua wrappers that call the entry points below through FFI function pointers. They are handed over as
 * light userdata (the address of a pointer to each), never looked up by symbol: the module is built
 * with hidden visibility and loaded RTLD_LOCAL. COLLIDE2D_NO_FFI=1 in the environment keeps the C path.
 *
 * An entry point takes each shape argument as the FFI passes a full userdata to a void * parameter:
 * the address of its payload, so a call makes no cdata, even interpreted. It is given only userdata
 * carrying the shape metatable, but that can be any userdata (debug.setmetatable), which the C path
 * tells apart by its size: here the box's tag, its own address scrambled, says that it is a shape
 * box, and m_gc clears it so that memory a collected box leaves behind cannot pass for one. (For a
 * userdata smaller than the tag, that read goes past its payload, into the rest of its heap block or
 * the allocator's header after it: mapped memory.) An entry point returns FFI_FALLBACK for anything
 * but a plain success (not a shape box, a destroyed shape, a failed status); the wrapper then calls
 * the C function with the same arguments, which raises the usual error. Results go into the caller's
 * array of doubles in the order the C function returns them, so the Lua side knows no struct layout:
 * shape_box stays private to the C files. The entry points read and write only the shapes, as the C
 * functions do, and touch no Lua state; the wrappers read the results back before any other Lua code
 * can run, so coroutines never see each other's.
 */
#if LUA_VERSION_NUM == 501

#define FFI_FALLBACK (-1)

/* The shape in the box at p, or NULL when p is not a live shape box. */
static c2d_shape *ffi_shape(void *p)
{
    const shape_box *b = (const shape_box *)p;
    if (b == NULL || b->tag != BOX_TAG(b))
        return NULL;
    return b->shape;
}

/* -> 1 or 0 as l_overlaps' boolean. */
static int ffi_overlaps(void *pa, void *pb)
{
    c2d_shape *a = ffi_shape(pa), *b = ffi_shape(pb);
    int hit;
    if (a == NULL || b == NULL || c2d_overlap(a, b, &hit) != C2D_OK)
        return FFI_FALLBACK;
    return hit != 0;
}

/* -> the number of contact points l_collide returns (0: it returns nil); out gets nx, ny, depth,
 * x1, y1 [, x2, y2]. */
static int ffi_collide(void *pa, void *pb, double *out)
{
    c2d_shape *a = ffi_shape(pa), *b = ffi_shape(pb);
    c2d_contact c;
    int i;
    if (a == NULL || b == NULL || c2d_collide(a, b, &c) != C2D_OK)
        return FFI_FALLBACK;
    if (c.count <= 0)
        return 0;
    out[0] = c.normal.x;
    out[1] = c.normal.y;
    out[2] = c.depth;
    for (i = 0; i < c.count && i < 2; i++) {
        out[3 + 2 * i] = c.points[i].x;
        out[4 + 2 * i] = c.points[i].y;
    }
    return i;
}

/* -> 0; out gets l_distance's seven numbers. */
static int ffi_distance(void *pa, void *pb, double *out)
{
    c2d_shape *a = ffi_shape(pa), *b = ffi_shape(pb);
    c2d_distance_result r;
    if (a == NULL || b == NULL || c2d_distance(a, b, &r) != C2D_OK)
        return FFI_FALLBACK;
    out[0] = r.distance;
    out[1] = r.point_a.x;
    out[2] = r.point_a.y;
    out[3] = r.point_b.x;
    out[4] = r.point_b.y;
    out[5] = r.normal.x;
    out[6] = r.normal.y;
    return 0;
}

/* -> 1 or 0 as l_contains' boolean. */
static int ffi_contains(void *p, double x, double y)
{
    c2d_shape *s = ffi_shape(p);
    int in;
    if (s == NULL || c2d_contains_point(s, vec(x, y), &in) != C2D_OK)
        return FFI_FALLBACK;
    return in != 0;
}

/* -> 1 for a hit (out gets t, x, y, nx, ny), 0 for a miss (l_raycast returns nil). */
static int ffi_raycast(void *p, double ox, double oy, double dx, double dy, double maxt, double *out)
{
    c2d_shape *s = ffi_shape(p);
    c2d_ray_hit h;
    if (s == NULL || c2d_raycast(s, vec(ox, oy), vec(dx, dy), maxt, &h) != C2D_OK)
        return FFI_FALLBACK;
    if (!h.hit)
        return 0;
    out[0] = h.t;
    out[1] = h.point.x;
    out[2] = h.point.y;
    out[3] = h.normal.x;
    out[4] = h.normal.y;
    return 1;
}

/* -> 0; out gets x, y. */
static int ffi_position(void *p, double *out)
{
    c2d_shape *s = ffi_shape(p);
    c2d_vec2 v;
    if (s == NULL || c2d_shape_get_position(s, &v) != C2D_OK)
        return FFI_FALLBACK;
    out[0] = v.x;
    out[1] = v.y;
    return 0;
}

/* The setters -> 0. A failed status leaves the shape as it was, so the C function can fail again. */
static int ffi_move(void *p, double dx, double dy)
{
    c2d_shape *s = ffi_shape(p);
    return s != NULL && c2d_shape_move(s, vec(dx, dy)) == C2D_OK ? 0 : FFI_FALLBACK;
}

static int ffi_setposition(void *p, double x, double y)
{
    c2d_shape *s = ffi_shape(p);
    return s != NULL && c2d_shape_set_position(s, vec(x, y)) == C2D_OK ? 0 : FFI_FALLBACK;
}

static int ffi_rotate(void *p, double da)
{
    c2d_shape *s = ffi_shape(p);
    return s != NULL && c2d_shape_rotate(s, da) == C2D_OK ? 0 : FFI_FALLBACK;
}

static int ffi_setangle(void *p, double a)
{
    c2d_shape *s = ffi_shape(p);
    return s != NULL && c2d_shape_set_angle(s, a) == C2D_OK ? 0 : FFI_FALLBACK;
}

static int ffi_settransform(void *p, double x, double y, double a)
{
    c2d_shape *s = ffi_shape(p);
    return s != NULL && c2d_shape_set_transform(s, vec(x, y), a) == C2D_OK ? 0 : FFI_FALLBACK;
}

/* Objects holding the function pointers: ISO C converts the address of an object, not of a function,
 * to void *. Each signature must match the one lua/ffi.lua casts its pointer to. */
static int (*const ffi_overlaps_p)(void *, void *) = ffi_overlaps;
static int (*const ffi_collide_p)(void *, void *, double *) = ffi_collide;
static int (*const ffi_distance_p)(void *, void *, double *) = ffi_distance;
static int (*const ffi_contains_p)(void *, double, double) = ffi_contains;
static int (*const ffi_raycast_p)(void *, double, double, double, double, double, double *) = ffi_raycast;
static int (*const ffi_position_p)(void *, double *) = ffi_position;
static int (*const ffi_move_p)(void *, double, double) = ffi_move;
static int (*const ffi_setposition_p)(void *, double, double) = ffi_setposition;
static int (*const ffi_rotate_p)(void *, double) = ffi_rotate;
static int (*const ffi_setangle_p)(void *, double) = ffi_setangle;
static int (*const ffi_settransform_p)(void *, double, double, double) = ffi_settransform;

static const struct {
    const char *name;
    const void *entry;
} ffi_entries[] = {
    {"overlaps", &ffi_overlaps_p},
    {"collide", &ffi_collide_p},
    {"distance", &ffi_distance_p},
    {"contains", &ffi_contains_p},
    {"raycast", &ffi_raycast_p},
    {"position", &ffi_position_p},
    {"move", &ffi_move_p},
    {"setPosition", &ffi_setposition_p},
    {"rotate", &ffi_rotate_p},
    {"setAngle", &ffi_setangle_p},
    {"setTransform", &ffi_settransform_p},
};

/* The wrappers of lua/ffi.lua, run with (module, shape metatable, entry points). */
#include "ffi_chunk.h"

/* Installs the fast path into the module table at index module, when this is LuaJIT with its ffi
 * module and COLLIDE2D_NO_FFI is unset, empty or "0". Anything that goes wrong leaves the C path. */
void install_ffi(lua_State *L, int module)
{
    const char *off = getenv("COLLIDE2D_NO_FFI");
    size_t i;
    int luajit;
    if (off != NULL && off[0] != '\0' && strcmp(off, "0") != 0)
        return;
    lua_getfield(L, LUA_REGISTRYINDEX, "_LOADED");
    lua_getfield(L, -1, "jit");
    luajit = lua_istable(L, -1);
    lua_pop(L, 2);
    if (!luajit)
        return;
    if (luaL_loadbuffer(L, ffi_chunk, sizeof ffi_chunk - 1, "=collide2d.ffi") != 0) {
        lua_pop(L, 1);
        return;
    }
    lua_pushvalue(L, module);
    luaL_getmetatable(L, SHAPE_NAME);
    lua_createtable(L, 0, (int)(sizeof ffi_entries / sizeof ffi_entries[0]));
    for (i = 0; i < sizeof ffi_entries / sizeof ffi_entries[0]; i++) {
        lua_pushlightuserdata(L, (void *)ffi_entries[i].entry);
        lua_setfield(L, -2, ffi_entries[i].name);
    }
    if (lua_pcall(L, 3, 0, 0) != 0)
        lua_pop(L, 1);
}
#endif
