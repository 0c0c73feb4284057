/*
 * queries.c - questions about one shape or a pair of shapes: closest point, contact, containment,
 * distance, overlap, ray cast, and the swept test (time of impact). Each answers with plain numbers and
 * booleans, no garbage.
 */
#include <math.h>

#include "binding.h"

/* ---- queries --------------------------------------------------------------------------------- */

/* shape:closest(x, y) -> px, py, d: the nearest boundary point and the signed distance to it
 * (negative inside). */
int l_closest(lua_State *L)
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
int l_collide(lua_State *L)
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
int l_contains(lua_State *L)
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
int l_distance(lua_State *L)
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
int l_overlaps(lua_State *L)
{
    c2d_shape *a = checkshape(L, 1), *b = checkshape(L, 2);
    int hit;
    CHECK(L, c2d_overlap(a, b, &hit), 1, "");
    lua_pushboolean(L, hit);
    return 1;
}

/* shape:raycast(ox, oy, dx, dy [, maxt]) -> t, x, y, nx, ny, or nil: the ray origin + t * direction,
 * 0 <= t <= maxt (default: unbounded); the normal faces the ray. */
int l_raycast(lua_State *L)
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

/* ---- swept collision -------------------------------------------------------------------------- */

/* Pushes a time of impact: nothing but nil when there is none, else t, nx, ny, px, py, then the
 * static set's 1-based index (when index >= 0), overlapping, and the depth when overlapping. */
int push_toi(lua_State *L, const c2d_toi *toi, int index)
{
    int n = 6;
    if (toi->state == C2D_TOI_NONE) {
        lua_pushnil(L);
        return 1;
    }
    lua_pushnumber(L, toi->t);
    lua_pushnumber(L, toi->normal.x);
    lua_pushnumber(L, toi->normal.y);
    lua_pushnumber(L, toi->point.x);
    lua_pushnumber(L, toi->point.y);
    if (index >= 0) {
        lua_pushinteger(L, (lua_Integer)index + 1);
        n++;
    }
    lua_pushboolean(L, toi->state == C2D_TOI_OVERLAP);
    if (toi->state == C2D_TOI_OVERLAP) {
        lua_pushnumber(L, toi->depth);
        n++;
    }
    return n;
}

/* collide2d.sweep(a, dx, dy, b [, odx, ody]), a:sweep(dx, dy, b [, odx, ody]) -> nil, or
 * t, nx, ny, px, py, overlapping [, depth]: a moving by (dx, dy) and b by (odx, ody) over the same
 * time first touch at fraction t; the normal points from a to b. */
int l_sweep(lua_State *L)
{
    c2d_shape *a = checkshape(L, 1);
    double dx = luaL_checknumber(L, 2), dy = luaL_checknumber(L, 3);
    c2d_shape *b = checkshape(L, 4);
    double odx = luaL_optnumber(L, 5, 0.0), ody = luaL_optnumber(L, 6, 0.0);
    c2d_toi toi;
    CHECK(L, c2d_sweep(a, vec(dx, dy), b, vec(odx, ody), &toi), 2, "cc-cc");
    return push_toi(L, &toi, -1);
}

/* collide2d.sweepMotion(a, dx, dy, angle, px, py, b [, odx, ody, oangle, opx, opy]) and the method
 * a:sweepMotion(...): as sweep, each shape also turning by its angle over the motion about its own
 * point (px, py) (in its own frame; 0, 0 is its position). */
int l_sweepmotion(lua_State *L)
{
    c2d_shape *a = checkshape(L, 1);
    c2d_motion ma = checkmotion(L, 2, 0);
    /* The first shape's pivot is not optional: its motion is followed by the second shape. */
    ma.pivot = vec(luaL_checknumber(L, 5), luaL_checknumber(L, 6));
    c2d_shape *b = checkshape(L, 7);
    c2d_motion mb = checkmotion(L, 8, 1);
    c2d_toi toi;
    CHECK(L, c2d_sweep_motion(a, &ma, b, &mb, &toi), 2, "ccccc-ccccc");
    return push_toi(L, &toi, -1);
}
