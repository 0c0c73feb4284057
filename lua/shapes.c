/*
 * shapes.c - shapes from Lua: recognising a shape box on the Lua stack, the constructors, reading,
 * moving and turning a shape, and its metamethods.
 *
 * A shape is a full userdata holding one c2d_shape pointer (NULL once destroyed), like liolib's file
 * handle: the box is created empty before the shape is, so a failed constructor or a memory error never
 * leaks.
 */
#include <math.h>
#include <string.h>

#include "binding.h"

static const char *const kind_names[] = {"none", "circle", "rectangle", "polygon", "capsule", "segment", "chain", "concave"};

const char *kind_name(const c2d_shape *s)
{
    unsigned k = (unsigned)c2d_shape_get_type(s);
    return k < sizeof kind_names / sizeof kind_names[0] ? kind_names[k] : "unknown";
}

/* ---- shapes on the Lua stack ----------------------------------------------------------------- */

/* The userdata at idx if its metatable is the one at upvalue index mt and its size is size, else
 * NULL. The size check keeps a userdata given one of our metatables through the debug library from
 * being read as one of our boxes. (Static sets vary in size: tosetbox checks its own.) */
void *tobox(lua_State *L, int idx, int mt, size_t size)
{
    int same;
    if (lua_type(L, idx) != LUA_TUSERDATA || !lua_getmetatable(L, idx))
        return NULL;
    same = lua_rawequal(L, -1, mt);
    lua_pop(L, 1);
    if (!same || lua_rawlen(L, idx) != size)
        return NULL;
    return lua_touserdata(L, idx);
}

shape_box *toshapebox(lua_State *L, int idx)
{
    return (shape_box *)tobox(L, idx, SHAPE_MT, sizeof(shape_box));
}

shape_box *checkshapebox(lua_State *L, int idx)
{
    shape_box *b = toshapebox(L, idx);
    if (b == NULL)
        luaL_typeerror(L, idx, SHAPE_NAME);
    return b;
}

c2d_shape *checkshape(lua_State *L, int idx)
{
    shape_box *b = checkshapebox(L, idx);
    if (b->shape == NULL)
        luaL_error(L, "attempt to use a destroyed shape");
    return b->shape;
}

c2d_shape *checkmover(lua_State *L, int idx)
{
    c2d_shape *s = checkshape(L, idx);
    c2d_shape_type k = c2d_shape_get_type(s);
    if (k == C2D_SHAPE_CHAIN || k == C2D_SHAPE_CONCAVE)
        luaL_argerror(L, idx, "a chain or concave polygon cannot be a mover");
    return s;
}

/* Pushes an empty box with the shape metatable, before any C allocation, so that nothing can leak. */
static shape_box *newshapebox(lua_State *L)
{
    shape_box *b = (shape_box *)lua_newuserdata(L, sizeof(shape_box));
    memset(b, 0, sizeof *b);
    b->tag = BOX_TAG(b);
    lua_pushvalue(L, SHAPE_MT);
    lua_setmetatable(L, -2);
    return b;
}

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

/* ---- constructors ---------------------------------------------------------------------------- */

/* collide2d.box(cx, cy, w, h [, angle]): a rectangle given by its centre, about which the angle turns,
 * as c2d_rect_new and love.physics.newRectangleShape take it. */
int l_box(lua_State *L)
{
    double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
    double w = luaL_checknumber(L, 3), h = luaL_checknumber(L, 4), a = luaL_optnumber(L, 5, 0.0);
    shape_box *b = newshapebox(L);
    CHECK(L, c2d_rect_new(x, y, w, h, a, &b->shape), 1, "ccssc");
    return 1;
}

/* collide2d.capsule(x1, y1, x2, y2, r): every point within r of the segment. */
int l_capsule(lua_State *L)
{
    double x1 = luaL_checknumber(L, 1), y1 = luaL_checknumber(L, 2);
    double x2 = luaL_checknumber(L, 3), y2 = luaL_checknumber(L, 4), r = luaL_checknumber(L, 5);
    shape_box *b = newshapebox(L);
    CHECK(L, c2d_capsule_new(vec(x1, y1), vec(x2, y2), r, &b->shape), 1, "ccpps");
    return 1;
}

/* collide2d.circle(x, y, r): centre and radius, as love.graphics.circle. */
int l_circle(lua_State *L)
{
    double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2), r = luaL_checknumber(L, 3);
    shape_box *b = newshapebox(L);
    CHECK(L, c2d_circle_new(x, y, r, &b->shape), 1, "ccs");
    return 1;
}

/* collide2d.hull(x1, y1, ...) or hull({...}): the convex hull of points in any order. */
int l_hull(lua_State *L)
{
    return polygon_like(L, c2d_hull_new);
}

/* collide2d.polygon(x1, y1, ...) or polygon({...}): convex, in order, as love.graphics.polygon. */
int l_polygon(lua_State *L)
{
    return polygon_like(L, c2d_polygon_new);
}

/* collide2d.rectangle(x, y, w, h [, angle]): x, y is the top-left corner as in love.graphics.rectangle,
 * bump and HC; the core wants the centre, about which the angle turns. */
int l_rectangle(lua_State *L)
{
    double x = luaL_checknumber(L, 1), y = luaL_checknumber(L, 2);
    double w = luaL_checknumber(L, 3), h = luaL_checknumber(L, 4), a = luaL_optnumber(L, 5, 0.0);
    shape_box *b = newshapebox(L);
    CHECK(L, c2d_rect_new(x + 0.5 * w, y + 0.5 * h, w, h, a, &b->shape), 1, "ccssc");
    return 1;
}

/* collide2d.segment(x1, y1, x2, y2). */
int l_segment(lua_State *L)
{
    double x1 = luaL_checknumber(L, 1), y1 = luaL_checknumber(L, 2);
    double x2 = luaL_checknumber(L, 3), y2 = luaL_checknumber(L, 4);
    shape_box *b = newshapebox(L);
    CHECK(L, c2d_segment_new(vec(x1, y1), vec(x2, y2), &b->shape), 1, "ccpp");
    return 1;
}

/* The placed vertices of s (part < 0) or of its part `part`, as {x1, y1, x2, y2, ...}: into the table
 * at stack index arg when one is given (filled, and cleared past the end), else a new one. */
static int push_vertex_list(lua_State *L, c2d_shape *s, int part, int arg)
{
    c2d_vec2 buf[STACK_POINTS], *pts = buf;
    int n;
    CHECK(L, part < 0 ? c2d_shape_get_vertices(s, NULL, 0, &n) : c2d_shape_get_part_vertices(s, part, NULL, 0, &n), 1,
          "");
    if (!lua_isnoneornil(L, arg))
        luaL_checktype(L, arg, LUA_TTABLE);
    lua_settop(L, arg);
    if (n > STACK_POINTS)
        pts = (c2d_vec2 *)lua_newuserdata(L, (size_t)n * sizeof(c2d_vec2));
    CHECK(L, part < 0 ? c2d_shape_get_vertices(s, pts, n, &n) : c2d_shape_get_part_vertices(s, part, pts, n, &n), 1,
          "");
    return push_point_list(L, pts, n, arg);
}

int push_point_list(lua_State *L, const c2d_vec2 *pts, int n, int arg)
{
    int i, old = 0;
    if (lua_isnoneornil(L, arg)) {
        lua_createtable(L, 2 * n, 0);
    } else {
        old = (int)lua_rawlen(L, arg);
        lua_pushvalue(L, arg);
    }
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

/* The points of the flat list {x1, y1, x2, y2, ...} at stack index idx, in a buffer the collector
 * frees (left on the stack). what names the list in errors (argument arg). */
static c2d_vec2 *ring_at(lua_State *L, int idx, int arg, const char *what, int *count)
{
    size_t len, n, i;
    c2d_vec2 *pts;
    if (!lua_istable(L, idx))
        luaL_argerror(L, arg, lua_pushfstring(L, "%s: table expected, got %s", what, luaL_typename(L, idx)));
    len = (size_t)lua_rawlen(L, idx);
    n = len / 2;
    if (len % 2 == 1)
        luaL_argerror(L, arg, lua_pushfstring(L, "%s: an even number of coordinates expected", what));
    if (n > C2D_MAX_POLYGON_POINTS)
        luaL_argerror(L, arg, c2d_status_string(C2D_ERR_RANGE));
    luaL_checkstack(L, 2, "too many points");
    pts = (c2d_vec2 *)lua_newuserdata(L, (n > 0 ? n : 1) * sizeof(c2d_vec2));
    for (i = 0; i < 2 * n; i++) {
        double v;
        lua_rawgeti(L, idx, (int)i + 1);
        if (!lua_isnumber(L, -1))
            luaL_argerror(L, arg, lua_pushfstring(L, "%s: number expected at index %d, got %s", what, (int)i + 1,
                                                  luaL_typename(L, -1)));
        v = lua_tonumber(L, -1);
        lua_pop(L, 1);
        if (i % 2 == 0)
            pts[i / 2].x = v;
        else
            pts[i / 2].y = v;
    }
    *count = (int)n;
    return pts;
}

/* The boolean field name of the options table at arg (nil: no). */
static int opt_flag(lua_State *L, int arg, const char *name)
{
    int on;
    if (lua_isnoneornil(L, arg))
        return 0;
    luaL_checktype(L, arg, LUA_TTABLE);
    lua_getfield(L, arg, name);
    if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TBOOLEAN)
        field_typeerror(L, arg, name, "boolean");
    on = lua_toboolean(L, -1);
    lua_pop(L, 1);
    return on;
}

/* collide2d.chain({x1, y1, x2, y2, ...} [, {closed = bool, oneSided = bool}]): a polyline of segments
 * whose joints are never surface. */
int l_chain(lua_State *L)
{
    int n, flags;
    c2d_vec2 *pts;
    shape_box *b;
    c2d_status st;
    flags = (opt_flag(L, 2, "closed") ? C2D_CHAIN_CLOSED : 0) | (opt_flag(L, 2, "oneSided") ? C2D_CHAIN_ONE_SIDED : 0);
    lua_settop(L, 2);
    pts = ring_at(L, 1, 1, "points", &n);
    b = newshapebox(L);
    st = c2d_chain_new(pts, n, flags, &b->shape);
    if (st == C2D_ERR_NO_MEMORY)
        return luaL_error(L, "%s", c2d_status_string(st));
    if (st != C2D_OK)
        return luaL_argerror(L, 1, c2d_status_string(st));
    return 1;
}

/* Whether every coordinate of the n points is finite and within the coordinate range. */
static int points_in_range(const c2d_vec2 *p, int n)
{
    int i;
    for (i = 0; i < n; i++)
        if (!(fabs(p[i].x) <= C2D_MAX_COORDINATE && fabs(p[i].y) <= C2D_MAX_COORDINATE))
            return 0;
    return 1;
}

/* collide2d.concave({x1, y1, ...} [, {hole1, hole2, ...}]): a simple polygon, concave or not, with
 * optional holes (each a flat list like the outline), split into convex parts. */
int l_concave(lua_State *L)
{
    int n, nholes = 0, i, counts_stack[8], *counts = counts_stack;
    const c2d_vec2 *holes_stack[8], **holes = holes_stack;
    c2d_vec2 *outline;
    shape_box *b;
    c2d_status st;
    lua_settop(L, 2);
    outline = ring_at(L, 1, 1, "outline", &n);
    if (!lua_isnil(L, 2)) {
        luaL_checktype(L, 2, LUA_TTABLE);
        nholes = (int)lua_rawlen(L, 2);
        if (nholes > C2D_MAX_POLYGON_POINTS)
            return luaL_argerror(L, 2, c2d_status_string(C2D_ERR_RANGE));
        if (nholes > 8) {
            holes = (const c2d_vec2 **)lua_newuserdata(L, (size_t)nholes * sizeof *holes);
            counts = (int *)lua_newuserdata(L, (size_t)nholes * sizeof *counts);
        }
        for (i = 0; i < nholes; i++) {
            lua_rawgeti(L, 2, i + 1);
            holes[i] = ring_at(L, lua_gettop(L), 2, "hole", &counts[i]); /* the ring stays on the stack */
        }
    }
    b = newshapebox(L);
    st = c2d_concave_new(outline, n, holes, counts, nholes, &b->shape);
    if (st == C2D_ERR_NO_MEMORY)
        return luaL_error(L, "%s", c2d_status_string(st));
    /* A NaN, infinite or too large coordinate is the fault of the list that holds it. */
    if ((st == C2D_ERR_NOT_FINITE || st == C2D_ERR_RANGE) && points_in_range(outline, n)) {
        for (i = 0; i < nholes; i++)
            if (!points_in_range(holes[i], counts[i]))
                return luaL_argerror(L, 2, lua_pushfstring(L, "hole: %s", c2d_status_string(st)));
    }
    if (st != C2D_OK)
        return luaL_argerror(L, 1, c2d_status_string(st));
    return 1;
}

/* shape:parts() -> the number of convex parts (1 but for chains and concave polygons). */
int l_parts(lua_State *L)
{
    int n;
    CHECK(L, c2d_shape_get_part_count(checkshape(L, 1), &n), 1, "");
    lua_pushinteger(L, n);
    return 1;
}

/* shape:part(k [, t]) -> {x1, y1, ...}: the placed vertices of part k (1-based), into t if given. */
int l_part(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    lua_Number kn = luaL_checknumber(L, 2);
    int parts;
    CHECK(L, c2d_shape_get_part_count(s, &parts), 1, "");
    if (!(kn >= 1 && kn <= parts && kn == floor(kn)))
        return luaL_argerror(L, 2, lua_pushfstring(L, "part index expected (1 to %d)", parts));
    return push_vertex_list(L, s, (int)kn - 1, 3);
}

/* shape:clone(): an independent copy. */
int l_clone(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    shape_box *b = newshapebox(L);
    CHECK(L, c2d_shape_clone(s, &b->shape), 1, "");
    return 1;
}

/* shape:destroy(), also __close: frees the C shape now; safe to call any number of times. A shape in a
 * world leaves it first; a shape a running world call is reading (the mover of world:move, the shape
 * of world:queryShape, from inside their callbacks) refuses. */
int l_destroy(lua_State *L)
{
    shape_box *b = checkshapebox(L, 1);
    if (b->pinned > 0)
        return luaL_error(L, "attempt to destroy a shape that a running world query is using");
    if (b->world != NULL)
        leave_world(L, b, 0);
    c2d_shape_destroy(b->shape);
    b->shape = NULL;
    return 0;
}

/* __gc: as destroy, without raising. A pinned shape is on the stack of a running call, so the collector
 * cannot reach it; the test only guards against freeing what the core may still read. The tag goes
 * too: a userdata allocated later at this address that never writes its first bytes must not pass
 * for a shape box (see ffi_shape). */
int m_gc(lua_State *L)
{
    shape_box *b = checkshapebox(L, 1);
    if (b->pinned > 0)
        return 0;
    if (b->world != NULL)
        leave_world(L, b, 0);
    c2d_shape_destroy(b->shape);
    b->shape = NULL;
    b->tag = 0;
    return 0;
}

/* ---- reading and moving ---------------------------------------------------------------------- */

/* shape:angle() -> radians. */
int l_angle(lua_State *L)
{
    double a;
    CHECK(L, c2d_shape_get_angle(checkshape(L, 1), &a), 1, "");
    lua_pushnumber(L, a);
    return 1;
}

/* shape:bbox() -> minx, miny, maxx, maxy (HC's order). */
int l_bbox(lua_State *L)
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
int l_move(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double dx = luaL_checknumber(L, 2), dy = luaL_checknumber(L, 3);
    CHECK(L, c2d_shape_move(s, vec(dx, dy)), 2, "cc");
    lua_settop(L, 1);
    return 1;
}

/* shape:position() -> x, y: the centre, or a polygon's centroid. */
int l_position(lua_State *L)
{
    c2d_vec2 p;
    CHECK(L, c2d_shape_get_position(checkshape(L, 1), &p), 1, "");
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    return 2;
}

/* shape:radius() -> the circle's or capsule's radius, else 0. */
int l_radius(lua_State *L)
{
    double r;
    CHECK(L, c2d_shape_get_radius(checkshape(L, 1), &r), 1, "");
    lua_pushnumber(L, r);
    return 1;
}

/* shape:rotate(delta) -> shape: turns about the position. */
int l_rotate(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double da = luaL_checknumber(L, 2);
    CHECK(L, c2d_shape_rotate(s, da), 2, "c");
    lua_settop(L, 1);
    return 1;
}

/* shape:setAngle(angle) -> shape. */
int l_setangle(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double a = luaL_checknumber(L, 2);
    CHECK(L, c2d_shape_set_angle(s, a), 2, "c");
    lua_settop(L, 1);
    return 1;
}

/* shape:setPosition(x, y) -> shape. */
int l_setposition(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3);
    CHECK(L, c2d_shape_set_position(s, vec(x, y)), 2, "cc");
    lua_settop(L, 1);
    return 1;
}

/* shape:setTransform(x, y, angle) -> shape. */
int l_settransform(lua_State *L)
{
    c2d_shape *s = checkshape(L, 1);
    double x = luaL_checknumber(L, 2), y = luaL_checknumber(L, 3), a = luaL_checknumber(L, 4);
    CHECK(L, c2d_shape_set_transform(s, vec(x, y), a), 2, "ccc");
    lua_settop(L, 1);
    return 1;
}

/* collide2d.type(x) -> "circle", "rectangle", ..., "destroyed shape", or nil for anything else: the
 * io.type pattern, so it never raises. */
int l_type(lua_State *L)
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
int l_version(lua_State *L)
{
    lua_pushinteger(L, c2d_version());
    lua_pushstring(L, c2d_version_string());
    return 2;
}

/* shape:vertices([t]) -> {x1, y1, x2, y2, ...}, counter-clockwise, ready for love.graphics.polygon.
 * Passing a table reuses it (entries past the new end are cleared), so drawing need not make garbage. */
int l_vertices(lua_State *L)
{
    return push_vertex_list(L, checkshape(L, 1), -1, 2);
}

/* ---- metamethods ----------------------------------------------------------------------------- */

/* "collide2d.shape (circle, 0x...)" or "collide2d.shape (destroyed)", as liolib's "file (closed)". */
int m_tostring(lua_State *L)
{
    shape_box *b = checkshapebox(L, 1);
    if (b->shape == NULL)
        lua_pushliteral(L, SHAPE_NAME " (destroyed)");
    else
        lua_pushfstring(L, SHAPE_NAME " (%s, %p)", kind_name(b->shape), (void *)b->shape);
    return 1;
}
