/*
 * collide2d.c - the Lua binding: `require "collide2d"` in Lua 5.4, PUC Lua 5.1, LuaJIT and LÖVE 11.
 *
 * Thin on purpose: this file checks arguments, converts between Lua values and the structs of the
 * public C API (include/collide2d.h) and calls it; every piece of geometry lives in the core, which is
 * compiled into the module so that one collide2d.so is all a game needs. One source is built twice,
 * against Lua 5.4 and against Lua 5.1 headers (the build LuaJIT and LÖVE load); every difference
 * between those versions lives in the compat block below.
 *
 * A shape is a full userdata holding one c2d_shape pointer (NULL once destroyed), like liolib's file
 * handle: the box is created empty before the shape is, so a failed constructor or a memory error
 * never leaks. Hot paths (collide, overlaps, contains, raycast, move, rotate, ...) return plain numbers
 * and booleans, never tables or strings, so they create no Lua garbage.
 */
#include <math.h>
#include <string.h>

#include "lauxlib.h"
#include "lua.h"

#include "collide2d.h"

/* ---- Lua version compatibility: every 5.1 / 5.2+ difference lives in this block ---------------- */
#if LUA_VERSION_NUM < 502
/* LuaJIT 2.1's headers declare a luaL_setfuncs of their own; the compat_ name keeps ours apart. */
static void compat_setfuncs(lua_State *L, const luaL_Reg *l, int nup)
{
    luaL_checkstack(L, nup + 1, "too many upvalues");
    for (; l->name != NULL; l++) {
        int i;
        for (i = 0; i < nup; i++)
            lua_pushvalue(L, -nup);
        lua_pushcclosure(L, l->func, nup);
        lua_setfield(L, -(nup + 2), l->name);
    }
    lua_pop(L, nup);
}
#define luaL_setfuncs compat_setfuncs
#define lua_rawlen lua_objlen
#endif
#if LUA_VERSION_NUM < 504
/* 5.1 calls it luaL_typerror and 5.2/5.3 have none; 5.4's message has this same format. */
static int compat_typeerror(lua_State *L, int arg, const char *tname)
{
    return luaL_argerror(L, arg, lua_pushfstring(L, "%s expected, got %s", tname, luaL_typename(L, arg)));
}
#define luaL_typeerror compat_typeerror
#endif
/* ---- end of compat block ----------------------------------------------------------------------- */

#if defined(__GNUC__)
#define C2D_LUA_EXPORT __attribute__((visibility("default")))
#else
#define C2D_LUA_EXPORT
#endif

C2D_LUA_EXPORT int luaopen_collide2d(lua_State *L);

#define SHAPE_NAME "collide2d.shape"

/* Every function of the module is a closure over the shape metatable: comparing against an upvalue is
 * the cheapest sure way to recognise our userdata on hot paths (no registry lookup by name). */
#define SHAPE_MT lua_upvalueindex(1)

typedef struct shape_box {
    c2d_shape *shape; /* NULL when destroyed (or when its constructor failed) */
} shape_box;

static const char *const kind_names[] = {"none", "circle", "rectangle", "polygon", "capsule", "segment"};

static const char *kind_name(const c2d_shape *s)
{
    unsigned k = (unsigned)c2d_shape_get_type(s);
    return k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "unknown";
}

/* ---- shapes on the Lua stack ----------------------------------------------------------------- */

/* The box at idx if it is one of our shapes, else NULL. The size check keeps a userdata given our
 * metatable through the debug library from being read as a shape. */
static shape_box *toshapebox(lua_State *L, int idx)
{
    int same;
    if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx))
        return NULL;
    same = lua_rawequal(L, -1, SHAPE_MT);
    lua_pop(L, 1);
    if (!same || lua_rawlen(L, idx) != sizeof(shape_box))
        return NULL;
    return (shape_box *)lua_touserdata(L, idx);
}

static shape_box *checkshapebox(lua_State *L, int idx)
{
    shape_box *b = toshapebox(L, idx);
    if (b == NULL)
        luaL_typeerror(L, idx, SHAPE_NAME);
    return b;
}

static c2d_shape *checkshape(lua_State *L, int idx)
{
    shape_box *b = checkshapebox(L, idx);
    if (b->shape == NULL)
        luaL_error(L, "attempt to use a destroyed shape");
    return b->shape;
}

/* Pushes an empty box with the shape metatable, before any C allocation, so that nothing can leak. */
static shape_box *newshapebox(lua_State *L)
{
    shape_box *b = (shape_box *)lua_newuserdata(L, sizeof(shape_box));
    b->shape = NULL;
    lua_pushvalue(L, SHAPE_MT);
    lua_setmetatable(L, -2);
    return b;
}

/* ---- turning a failed status into the right Lua error ---------------------------------------- */

/*
 * Raises the error for a failed C call whose numeric arguments start at stack index first. roles has
 * one letter per argument: 'c' coordinate or angle, 's' size (must be > 0), 'p' a second point (blamed
 * for a zero-length segment), 'd' a direction (blamed when zero), 't' a limit that may be +infinity.
 * The first argument that explains the status is named in a standard "bad argument" error carrying
 * c2d_status_string, so `circle(0, 0, -1)` reports bad argument #3. A status no single argument
 * explains (a sum out of range) names the first argument.
 */
static int status_error(lua_State *L, c2d_status st, int first, const char *roles)
{
    const char *msg = c2d_status_string(st);
    int i;
    if (st == C2D_ERR_NO_MEMORY || st == C2D_ERR_NULL || st == C2D_ERR_CAPACITY)
        return luaL_error(L, "%s", msg);
    for (i = 0; roles[i] != '\0'; i++) {
        double v = lua_tonumber(L, first + i);
        char role = roles[i];
        int culprit;
        switch (st) {
        case C2D_ERR_NOT_FINITE:
            culprit = role == 't' ? (v != v || v == -HUGE_VAL) : !isfinite(v);
            break;
        case C2D_ERR_RANGE:
            culprit = isfinite(v) && fabs(v) > C2D_MAX_COORDINATE;
            break;
        case C2D_ERR_SIZE:
            culprit = role == 's' && !(v > 0);
            break;
        case C2D_ERR_DEGENERATE:
            culprit = role == 'p' || role == 'd';
            break;
        default:
            culprit = 0;
            break;
        }
        if (culprit)
            return luaL_argerror(L, first + i, msg);
    }
    return luaL_argerror(L, first, msg);
}

/* Returns from the calling binding with the Lua error for a failed C call. */
#define CHECK(L, call, first, roles)                                                                \
    do {                                                                                            \
        c2d_status st_ = (call);                                                                    \
        if (st_ != C2D_OK)                                                                          \
            return status_error(L, st_, first, roles);                                              \
    } while (0)

/* ---- point lists: polygon(x1, y1, x2, y2, ...) or polygon({x1, y1, x2, y2, ...}) ------------- */

#define STACK_POINTS 32

/* Reads the points of a polygon-like constructor into buf (or into a temporary userdata when they do
 * not fit; the collector frees it, also on error). Returns the point count. */
static c2d_vec2 *checkpoints(lua_State *L, c2d_vec2 *buf, int *count)
{
    int table = lua_istable(L, 1);
    size_t len = table ? (size_t)lua_rawlen(L, 1) : (size_t)lua_gettop(L);
    size_t n = (len + 1) / 2, i;
    c2d_vec2 *pts = buf;
    if (n > C2D_MAX_POLYGON_POINTS)
        luaL_argerror(L, 1, c2d_status_string(C2D_ERR_RANGE));
    /* An odd count lacks the last y: ask for it now, before a temporary buffer takes that slot. */
    if (!table && len % 2 == 1)
        luaL_checknumber(L, (int)len + 1);
    if (n > STACK_POINTS)
        pts = (c2d_vec2 *)lua_newuserdata(L, n * sizeof(c2d_vec2));
    for (i = 0; i < 2 * n; i++) {
        double v;
        if (table) {
            lua_rawgeti(L, 1, (int)i + 1);
            if (!lua_isnumber(L, -1))
                luaL_argerror(L, 1, lua_pushfstring(L, "number expected at index %d, got %s", (int)i + 1,
                                                    luaL_typename(L, -1)));
            v = lua_tonumber(L, -1);
            lua_pop(L, 1);
        } else {
            v = luaL_checknumber(L, (int)i + 1);
        }
        if (i % 2 == 0)
            pts[i / 2].x = v;
        else
            pts[i / 2].y = v;
    }
    *count = (int)n;
    return pts;
}

/* For a point list, the culprit of NaN or range errors is one coordinate (varargs form) or the list
 * itself (table form); convexity and degeneracy belong to the list as a whole: argument 1. */
static int points_error(lua_State *L, c2d_status st, int count)
{
    if (!lua_istable(L, 1) && (st == C2D_ERR_NOT_FINITE || st == C2D_ERR_RANGE)) {
        int i;
        for (i = 1; i <= 2 * count; i++) {
            double v = lua_tonumber(L, i);
            if (st == C2D_ERR_NOT_FINITE ? !isfinite(v) : fabs(v) > C2D_MAX_COORDINATE)
                return luaL_argerror(L, i, c2d_status_string(st));
        }
    }
    if (st == C2D_ERR_NO_MEMORY)
        return luaL_error(L, "%s", c2d_status_string(st));
    return luaL_argerror(L, 1, c2d_status_string(st));
}

static int polygon_like(lua_State *L, c2d_status (*make)(const c2d_vec2 *, int, c2d_shape **))
{
    c2d_vec2 buf[STACK_POINTS];
    int n;
    c2d_vec2 *pts = checkpoints(L, buf, &n);
    shape_box *b = newshapebox(L);
    c2d_status st = make(pts, n, &b->shape);
    if (st != C2D_OK)
        return points_error(L, st, n);
    return 1;
}

static c2d_vec2 vec(double x, double y)
{
    c2d_vec2 v;
    v.x = x;
    v.y = y;
    return v;
}

/* ---- constructors ---------------------------------------------------------------------------- */

/* collide2d.capsule(x1, y1, x2, y2, r): every point within r of the segment. */
static int l_capsule(lua_State *L)
{
    double x1 = luaL_checknumber(L, 1), y1 = luaL_checknumber(L, 2);
    double x2 = luaL_checknumber(L, 3), y2 = luaL_checknumber(L, 4), r = luaL_checknumber(L, 5);
    shape_box *b = newshapebox(L);
    CHECK(L, c2d_capsule_new(vec(x1, y1), vec(x2, y2), r, &b->shape), 1, "ccpps");
    return 1;
}

/* collide2d.circle(x, y, r): centre and radius, as love.graphics.circle. */
static int l_circle(lua_State *L)
{
    double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2), r = luaL_checknumber(L, 3);
    shape_box *b = newshapebox(L);
    CHECK(L, c2d_circle_new(x, y, r, &b->shape), 1, "ccs");
    return 1;
}

/* collide2d.hull(x1, y1, ...) or hull({...}): the convex hull of points in any order. */
static int l_hull(lua_State *L)
{
    return polygon_like(L, c2d_hull_new);
}

/* collide2d.polygon(x1, y1, ...) or polygon({...}): convex, in order, as love.graphics.polygon. */
static int l_polygon(lua_State *L)
{
    return polygon_like(L, c2d_polygon_new);
}

/* collide2d.rectangle(x, y, w, h [, angle]): x, y is the top-left corner as in love.graphics.rectangle,
 * bump and HC; the core wants the centre, about which the angle turns. */
static int l_rectangle(lua_State *L)
{
    double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
    double w = luaL_checknumber(L, 3), h = luaL_checknumber(L, 4), a = luaL_optnumber(L, 5, 0.0);
    shape_box *b = newshapebox(L);
    CHECK(L, c2d_rect_new(x + 0.5 * w, y + 0.5 * h, w, h, a, &b->shape), 1, "ccssc");
    return 1;
}

/* collide2d.segment(x1, y1, x2, y2). */
static int l_segment(lua_State *L)
{
    double x1 = luaL_checknumber(L, 1), y1 = luaL_checknumber(L, 2);
    double x2 = luaL_checknumber(L, 3), y2 = luaL_checknumber(L, 4);
    shape_box *b = newshapebox(L);
    CHECK(L, c2d_segment_new(vec(x1, y1), vec(x2, y2), &b->shape), 1, "ccpp");
    return 1;
}

/* shape:clone(): an independent copy. */
static int l_clone(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    shape_box *b = newshapebox(L);
    CHECK(L, c2d_shape_clone(s, &b->shape), 1, "");
    return 1;
}

/* shape:destroy(), also __gc and __close: frees the C shape now; safe to call any number of times. */
static int l_destroy(lua_State *L)
{
    shape_box *b = checkshapebox(L, 1);
    c2d_shape_destroy(b->shape);
    b->shape = NULL;
    return 0;
}

/* ---- reading and moving ---------------------------------------------------------------------- */

/* shape:angle() -> radians. */
static int l_angle(lua_State *L)
{
    double a;
    CHECK(L, c2d_shape_get_angle(checkshape(L, 1), &a), 1, "");
    lua_pushnumber(L, a);
    return 1;
}

/* shape:bbox() -> minx, miny, maxx, maxy (HC's order). */
static int l_bbox(lua_State *L)
{
    c2d_aabb box;
    CHECK(L, c2d_shape_get_aabb(checkshape(L, 1), &box), 1, "");
    lua_pushnumber(L, box.min.x);
    lua_pushnumber(L, box.min.y);
    lua_pushnumber(L, box.max.x);
    lua_pushnumber(L, box.max.y);
    return 4;
}

/* shape:move(dx, dy) -> shape. */
static int l_move(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double dx = luaL_checknumber(L, 2), dy = luaL_checknumber(L, 3);
    CHECK(L, c2d_shape_move(s, vec(dx, dy)), 2, "cc");
    lua_settop(L, 1);
    return 1;
}

/* shape:position() -> x, y: the centre, or a polygon's centroid. */
static int l_position(lua_State *L)
{
    c2d_vec2 p;
    CHECK(L, c2d_shape_get_position(checkshape(L, 1), &p), 1, "");
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    return 2;
}

/* shape:radius() -> the circle's or capsule's radius, else 0. */
static int l_radius(lua_State *L)
{
    double r;
    CHECK(L, c2d_shape_get_radius(checkshape(L, 1), &r), 1, "");
    lua_pushnumber(L, r);
    return 1;
}

/* shape:rotate(delta) -> shape: turns about the position. */
static int l_rotate(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double da = luaL_checknumber(L, 2);
    CHECK(L, c2d_shape_rotate(s, da), 2, "c");
    lua_settop(L, 1);
    return 1;
}

/* shape:setAngle(angle) -> shape. */
static int l_setangle(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double a = luaL_checknumber(L, 2);
    CHECK(L, c2d_shape_set_angle(s, a), 2, "c");
    lua_settop(L, 1);
    return 1;
}

/* shape:setPosition(x, y) -> shape. */
static int l_setposition(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3);
    CHECK(L, c2d_shape_set_position(s, vec(x, y)), 2, "cc");
    lua_settop(L, 1);
    return 1;
}

/* shape:setTransform(x, y, angle) -> shape. */
static int l_settransform(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3), a = luaL_checknumber(L, 4);
    CHECK(L, c2d_shape_set_transform(s, vec(x, y), a), 2, "ccc");
    lua_settop(L, 1);
    return 1;
}

/* collide2d.type(x) -> "circle", "rectangle", ..., "destroyed shape", or nil for anything else: the
 * io.type pattern, so it never raises. */
static int l_type(lua_State *L)
{
    shape_box *b;
    luaL_checkany(L, 1);
    b = toshapebox(L, 1);
    if (b == NULL)
        lua_pushnil(L);
    else if (b->shape == NULL)
        lua_pushliteral(L, "destroyed shape");
    else
        lua_pushstring(L, kind_name(b->shape));
    return 1;
}

/* collide2d.version() -> C2D_VERSION_NUMBER of the compiled-in core, its "MAJOR.MINOR.PATCH". */
static int l_version(lua_State *L)
{
    lua_pushinteger(L, c2d_version());
    lua_pushstring(L, c2d_version_string());
    return 2;
}

/* shape:vertices([t]) -> {x1, y1, x2, y2, ...}, counter-clockwise, ready for love.graphics.polygon.
 * Passing a table reuses it (entries past the new end are cleared), so drawing need not make garbage. */
static int l_vertices(lua_State *L)
{
    c2d_vec2 buf[STACK_POINTS], *pts = buf;
    c2d_shape *s = checkshape(L, 1);
    int n, i, old = 0;
    CHECK(L, c2d_shape_get_vertices(s, NULL, 0, &n), 1, "");
    if (!lua_isnoneornil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        old = (int)lua_rawlen(L, 2);
    }
    lua_settop(L, 2);
    if (n > STACK_POINTS)
        pts = (c2d_vec2 *)lua_newuserdata(L, (size_t)n * sizeof(c2d_vec2));
    CHECK(L, c2d_shape_get_vertices(s, pts, n, &n), 1, "");
    if (lua_isnil(L, 2))
        lua_createtable(L, 2 * n, 0);
    else
        lua_pushvalue(L, 2);
    for (i = 0; i < n; i++) {
        lua_pushnumber(L, pts[i].x);
        lua_rawseti(L, -2, 2 * i + 1);
        lua_pushnumber(L, pts[i].y);
        lua_rawseti(L, -2, 2 * i + 2);
    }
    /* Clear from the top down so the table's border stays at 2n. */
    for (i = old; i > 2 * n; i--) {
        lua_pushnil(L);
        lua_rawseti(L, -2, i);
    }
    return 1;
}

/* ---- queries --------------------------------------------------------------------------------- */

/* shape:closest(x, y) -> px, py, d: the nearest boundary point and the signed distance to it
 * (negative inside). */
static int l_closest(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3), d;
    c2d_vec2 p;
    CHECK(L, c2d_closest_point(s, vec(x, y), &p, &d), 2, "cc");
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    lua_pushnumber(L, d);
    return 3;
}

/* collide2d.collide(a, b) -> nx, ny, depth, x1, y1 [, x2, y2], or nil when apart. The normal points
 * from a to b: moving b by depth * (nx, ny) separates them. */
static int l_collide(lua_State *L)
{
    c2d_shape *a = checkshape(L, 1), *b = checkshape(L, 2);
    c2d_contact c;
    int i;
    CHECK(L, c2d_collide(a, b, &c), 1, "");
    if (c.count <= 0) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, c.normal.x);
    lua_pushnumber(L, c.normal.y);
    lua_pushnumber(L, c.depth);
    for (i = 0; i < c.count && i < 2; i++) {
        lua_pushnumber(L, c.points[i].x);
        lua_pushnumber(L, c.points[i].y);
    }
    return 3 + 2 * i;
}

/* shape:contains(x, y) -> boolean; the boundary counts as inside. */
static int l_contains(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3);
    int in;
    CHECK(L, c2d_contains_point(s, vec(x, y), &in), 2, "cc");
    lua_pushboolean(L, in);
    return 1;
}

/* collide2d.distance(a, b) -> d, ax, ay, bx, by, nx, ny: signed distance (negative when overlapping),
 * the closest points of a and b and the unit normal from a to b. */
static int l_distance(lua_State *L)
{
    c2d_shape *a = checkshape(L, 1), *b = checkshape(L, 2);
    c2d_distance_result r;
    CHECK(L, c2d_distance(a, b, &r), 1, "");
    lua_pushnumber(L, r.distance);
    lua_pushnumber(L, r.point_a.x);
    lua_pushnumber(L, r.point_a.y);
    lua_pushnumber(L, r.point_b.x);
    lua_pushnumber(L, r.point_b.y);
    lua_pushnumber(L, r.normal.x);
    lua_pushnumber(L, r.normal.y);
    return 7;
}

/* collide2d.overlaps(a, b) -> boolean; touching counts. */
static int l_overlaps(lua_State *L)
{
    c2d_shape *a = checkshape(L, 1), *b = checkshape(L, 2);
    int hit;
    CHECK(L, c2d_overlap(a, b, &hit), 1, "");
    lua_pushboolean(L, hit);
    return 1;
}

/* shape:raycast(ox, oy, dx, dy [, maxt]) -> t, x, y, nx, ny, or nil: the ray origin + t * direction,
 * 0 <= t <= maxt (default: unbounded); the normal faces the ray. */
static int l_raycast(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double ox = luaL_checknumber(L, 2), oy = luaL_checknumber(L, 3);
    double dx = luaL_checknumber(L, 4), dy = luaL_checknumber(L, 5);
    double maxt = luaL_optnumber(L, 6, HUGE_VAL);
    c2d_ray_hit h;
    CHECK(L, c2d_raycast(s, vec(ox, oy), vec(dx, dy), maxt, &h), 2, "ccddt");
    if (!h.hit) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, h.t);
    lua_pushnumber(L, h.point.x);
    lua_pushnumber(L, h.point.y);
    lua_pushnumber(L, h.normal.x);
    lua_pushnumber(L, h.normal.y);
    return 5;
}

/* ---- metamethods ----------------------------------------------------------------------------- */

/* "collide2d.shape (circle, 0x...)" or "collide2d.shape (destroyed)", as liolib's "file (closed)". */
static int m_tostring(lua_State *L)
{
    shape_box *b = checkshapebox(L, 1);
    if (b->shape == NULL)
        lua_pushliteral(L, SHAPE_NAME " (destroyed)");
    else
        lua_pushfstring(L, SHAPE_NAME " (%s, %p)", kind_name(b->shape), (void *)b->shape);
    return 1;
}

/* The module table is also the metatable's __index, so shape:collide(other) is collide(shape, other). */
static const luaL_Reg module_funcs[] = {
    {"angle", l_angle},
    {"bbox", l_bbox},
    {"capsule", l_capsule},
    {"circle", l_circle},
    {"clone", l_clone},
    {"closest", l_closest},
    {"collide", l_collide},
    {"contains", l_contains},
    {"destroy", l_destroy},
    {"distance", l_distance},
    {"hull", l_hull},
    {"move", l_move},
    {"overlaps", l_overlaps},
    {"polygon", l_polygon},
    {"position", l_position},
    {"radius", l_radius},
    {"raycast", l_raycast},
    {"rectangle", l_rectangle},
    {"rotate", l_rotate},
    {"segment", l_segment},
    {"setAngle", l_setangle},
    {"setPosition", l_setposition},
    {"setTransform", l_settransform},
    {"type", l_type},
    {"version", l_version},
    {"vertices", l_vertices},
    {NULL, NULL},
};

/* __gc and __close share the idempotent destroy, so an explicit destroy, a to-be-closed variable and
 * the collector can meet in any order. */
static const luaL_Reg shape_meta[] = {
    {"__close", l_destroy},
    {"__gc", l_destroy},
    {"__tostring", m_tostring},
    {NULL, NULL},
};

int luaopen_collide2d(lua_State *L)
{
    luaL_newmetatable(L, SHAPE_NAME); /* mt */
    lua_createtable(L, 0, (int)(sizeof module_funcs / sizeof module_funcs[0]) + 1); /* mt M */
    lua_pushvalue(L, -2);
    luaL_setfuncs(L, module_funcs, 1); /* mt M */
    lua_pushstring(L, c2d_version_string());
    lua_setfield(L, -2, "_VERSION");

    lua_pushvalue(L, -2);
    lua_pushvalue(L, -1);
    luaL_setfuncs(L, shape_meta, 1); /* mt M mt */
    lua_pushvalue(L, -2);
    lua_setfield(L, -2, "__index");
    /* Lua 5.1's luaL_newmetatable does not set __name; 5.4's does, and setting it again is harmless. */
    lua_pushliteral(L, SHAPE_NAME);
    lua_setfield(L, -2, "__name");
    lua_pop(L, 1); /* mt M */
    return 1;
}
