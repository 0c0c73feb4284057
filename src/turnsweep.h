/* turnsweep.h - private interface of the rotating sweep (turnsweep.c): the time of impact of two convex
 * cores that each move and turn, for the public c2d_sweep_motion (pairs.c) and for static-set members
 * that turn (the set's engine). Layer 3 (kernels). */
#ifndef C2D_TURNSWEEP_H
#define C2D_TURNSWEEP_H

#include "sweep.h"

/* A rigid motion in world coordinates: over time t, a point x of the shape as it stands at time 0 goes
 * to c + v t + R(w t) (x - c). c is the pivot as it stands at time 0 (it moves with v); w is in
 * radians per unit of time, counter-clockwise positive. */
typedef struct c2d_rigid {
    c2d_vec2 c;
    c2d_vec2 v;
    double w;
} c2d_rigid;

/* The rigid motion that stands still. */
static inline c2d_rigid c2d_rigid_still(void)
{
    c2d_rigid m;
    m.c = v2(0, 0);
    m.v = v2(0, 0);
    m.w = 0;
    return m;
}

/* Where the point x (as at time 0) is at time t, given sin and cos of w t. */
static inline c2d_vec2 c2d_rigid_apply(const c2d_rigid *m, double t, double s, double c, c2d_vec2 x)
{
    c2d_vec2 r = v2_sub(x, m->c);
    return v2(m->c.x + m->v.x * t + (c * r.x - s * r.y), m->c.y + m->v.y * t + (s * r.x + c * r.y));
}

/* The velocity at time t of the point of the moving frame that is at p then. */
static inline c2d_vec2 c2d_rigid_velocity_at(const c2d_rigid *m, double t, c2d_vec2 p)
{
    c2d_vec2 r = v2_sub(p, v2_mad(m->c, t, m->v));
    return v2(m->v.x - m->w * r.y, m->v.y + m->w * r.x);
}

/* The box that core k covers while it turns about c through every angle between 0 and angle (radians,
 * counter-clockwise positive): the box of its vertices' arcs, grown by its radius (the core at each
 * angle is the hull of its vertices, so the boxes agree). More than 3 radians (near a half-turn, where
 * the arcs' ends no longer tell which axes they cross), or an angle that is not finite, gives the box of
 * the disc the core reaches about c. Rounded as the turned cores are, to a few ulps of c's magnitude
 * plus the core's reach from it: callers compare it with a margin. */
c2d_aabb c2d_core_turn_box(const c2d_core *k, c2d_vec2 c, double angle);

/* What a rotating sweep found: the time, the unit normal from A to B there, the contact point (midway
 * between the surfaces, as c2d_sweep's) and the distance left between the rounded cores (<= tol). */
typedef struct c2d_rigid_hit {
    double t;
    c2d_vec2 normal;
    c2d_vec2 point;
    double distance;
} c2d_rigid_hit;

/* The first time in [0, tmax] at which the rounded cores a and b (placed as at time 0), moving by ma
 * and mb, come within tol of each other while approaching (a touch that is parting, or sliding, is no
 * contact). *found = 1 and *hit, or *found = 0. Never later than the first contact: every step is
 * bounded by how fast any point of either core can approach the other along the current normal (see
 * turnsweep.c). The cores must not overlap deeper than tol at time 0. C2D_ERR_NO_MEMORY only. */
c2d_status c2d_core_sweep_rigid(const c2d_core *a, const c2d_rigid *ma, const c2d_core *b, const c2d_rigid *mb,
                                double tmax, double tol, int *found, c2d_rigid_hit *hit);

/* The tolerance of a rotating sweep of the two shapes: c2d_sweep_tolerance of the largest coordinate
 * either reaches over the unit of time. */
double c2d_rigid_sweep_tolerance(const c2d_shape *a, const c2d_rigid *ma, const c2d_shape *b, const c2d_rigid *mb);

/* c2d_core_sweep_rigid of two convex shapes as placed, over the unit of time, into a c2d_toi (state
 * C2D_TOI_HIT or C2D_TOI_NONE). */
c2d_status c2d_convex_sweep_rigid(const c2d_shape *a, const c2d_rigid *ma, const c2d_shape *b, const c2d_rigid *mb,
                                  double tol, c2d_toi *out);

/* The world motion of shape s standing where it is now under m (NULL: standing still): its pivot, a
 * point of its own frame, placed in the world. C2D_ERR_NOT_FINITE or C2D_ERR_RANGE for the first bad
 * number of m (velocity, angular velocity, pivot), or where its pivot stands beyond
 * C2D_MAX_COORDINATE: the one check of a motion for every call that takes one. */
c2d_status c2d_rigid_of_motion(const c2d_shape *s, const c2d_motion *m, c2d_rigid *out);

#endif
