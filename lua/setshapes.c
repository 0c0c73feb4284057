/*
 * setshapes.c - a static set's shapes as a game reads them: a Lua value per shape (set:setValue,
 * set:value, and contacts[k].value of the set's moves and ball steps), and each shape's kind, pose and
 * vertices as the set holds it, to draw the level without keeping copies (set:shape, set:vertices,
 * set:parts, set:part).
 *
 * The values live in a table, the set userdata's user value, keyed by the 1-based index: a set holds no
 * Lua value until it is given one. The geometry is read through c2d_static_set_get_shape, the set's own
 * copy of the shape, asked for again after anything that may run Lua code (an allocation may run a
 * finalizer, which may destroy the set).
 */
#include <math.h>

#include "binding.h"

/* Pushes the values table of the set at stack index set, or nil when none was given a value. */
void push_set_values(lua_State *L, int set)
{
    lua_getiuservalue(L, set, UV_SET_VALUES);
}

/* set:value(i) -> the value of shape i (nil unless given). */
int s_value(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    push_set_values(L, 1);
    if (!lua_istable(L, -1))
        return 1; /* nil */
    lua_rawgeti(L, -1, i + 1);
    return 1;
}

/* set:setValue(i, value) -> set: any Lua value (nil clears it), reported as contacts[k].value. */
int s_setvalue(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b);
    luaL_checkany(L, 3);
    lua_settop(L, 3);
    push_set_values(L, 1);
    if (!lua_istable(L, 4) && !lua_isnil(L, 3)) {
        lua_pop(L, 1);
        lua_newtable(L);
        lua_pushvalue(L, -1);
        lua_setiuservalue(L, 1, UV_SET_VALUES);
    }
    if (lua_istable(L, 4)) { /* else no table yet, and nil is every shape's value already */
        lua_pushvalue(L, 3);
        lua_rawseti(L, 4, i + 1);
    }
    lua_settop(L, 1);
    return 1;
}

/* The set's own copy of shape i of the set at stack index 1, checked again (see the top). */
static const c2d_shape *shape_of(lua_State *L, int i)
{
    const c2d_shape *s = NULL;
    c2d_status st = c2d_static_set_get_shape(checkset(L, 1)->set, i, &s);
    if (st != C2D_OK)
        status_error(L, st, 2, "");
    return s;
}

/* set:shape(i) -> kind, x, y, angle, r: what shape i is ("circle", "rectangle", ... as collide2d.type
 * says) and where it stands, with its radius (0 but for circles and capsules). No garbage. */
int s_shape(lua_State *L)
{
    set_box *b = checkset(L, 1);
    const c2d_shape *s = shape_of(L, checkindex(L, 2, b));
    c2d_vec2 p;
    double angle, r;
    CHECK(L, c2d_shape_get_position(s, &p), 2, "");
    CHECK(L, c2d_shape_get_angle(s, &angle), 2, "");
    CHECK(L, c2d_shape_get_radius(s, &r), 2, "");
    lua_pushstring(L, kind_name(s));
    lua_pushnumber(L, p.x);
    lua_pushnumber(L, p.y);
    lua_pushnumber(L, angle);
    lua_pushnumber(L, r);
    return 5;
}

#define STACK_POINTS 32

/* The vertices of shape i (part < 0) or of its part, into the table at arg or a new one. */
static int set_vertex_list(lua_State *L, int i, int part, int arg)
{
    c2d_vec2 buf[STACK_POINTS], *pts = buf;
    const c2d_shape *s = shape_of(L, i);
    int n;
    CHECK(L, part < 0 ? c2d_shape_get_vertices(s, NULL, 0, &n) : c2d_shape_get_part_vertices(s, part, NULL, 0, &n), 2,
          "");
    if (!lua_isnoneornil(L, arg))
        luaL_checktype(L, arg, LUA_TTABLE);
    lua_settop(L, arg);
    if (n > STACK_POINTS) {
        pts = (c2d_vec2 *)lua_newuserdata(L, (size_t)n * sizeof(c2d_vec2));
        s = shape_of(L, i);
    }
    CHECK(L, part < 0 ? c2d_shape_get_vertices(s, pts, n, &n) : c2d_shape_get_part_vertices(s, part, pts, n, &n), 2,
          "");
    return push_point_list(L, pts, n, arg);
}

/* set:vertices(i [, t]) -> {x1, y1, ...}: shape i's vertices where it stands, as shape:vertices gives a
 * shape's (into t when given: no garbage). */
int s_vertices(lua_State *L)
{
    set_box *b = checkset(L, 1);
    return set_vertex_list(L, checkindex(L, 2, b), -1, 3);
}

/* set:parts(i) -> the number of convex parts of shape i, as shape:parts. */
int s_parts(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int n;
    CHECK(L, c2d_shape_get_part_count(shape_of(L, checkindex(L, 2, b)), &n), 2, "");
    lua_pushinteger(L, n);
    return 1;
}

/* set:part(i, k [, t]) -> {x1, y1, ...}: the vertices of part k (1-based) of shape i, as shape:part. */
int s_part(lua_State *L)
{
    set_box *b = checkset(L, 1);
    int i = checkindex(L, 2, b), parts;
    lua_Number k = luaL_checknumber(L, 3);
    CHECK(L, c2d_shape_get_part_count(shape_of(L, i), &parts), 2, "");
    if (!(k >= 1 && k <= parts && k == floor(k)))
        return luaL_argerror(L, 3, lua_pushfstring(L, "part index expected (1 to %d)", parts));
    return set_vertex_list(L, i, (int)k - 1, 4);
}
