/* engine.h - private interface of the static-set engine: the mover, the engine that runs one motion of
 * it through a static set, and the cast of one leg, with the small helpers every file of the engine
 * calls per member it meets (inlined there: they run per member and per leg). Layer 4, sets.
 *
 * The engine's files call one way only: engine.c (the engine, its hulls and casts) <- pushout.c (the
 * shortest way out of the union) <- run.c (the first leg, the legs and their responses, the records)
 * <- resolve.c (the public calls) <- character.c (the character mover, over the same engine). Each part
 * below names the file that defines it. */
#ifndef C2D_ENGINE_H
#define C2D_ENGINE_H

#include "records.h"
#include "sweep.h"
#include "turnsweep.h"

/* Push-out rounds before giving up (each leaves the union or goes one shape further out). */
#define MAX_PUSHES 8
/* Crossings of one leg that fit in the cast's own storage; more go to the heap. */
#define CROSS_STACK 32
/* Vertices of one hull (the mover's and a member's) that fit in the engine's own storage; more go to
 * the heap. */
#define STACK_HULL 64

/* What moves: a convex core swollen by r, its vertices where it stands at offset 0; at offset p it
 * stands moved by p. A shape's offset starts at 0; a ball is the one point 0 with its radius, so its
 * offset is its centre. */
typedef struct mover {
    const c2d_vec2 *v; /* core at offset 0 */
    const c2d_vec2 *nrm; /* its outward edge normals (NULL for a point) */
    int n;
    double r;
    c2d_aabb box; /* at offset 0 */
    c2d_vec2 own[C2D_PAIR_STACK], own_n[C2D_PAIR_STACK]; /* a shape's placed core, when it fits */
    c2d_vec2 *heap;                                      /* else here (vertices, then normals) */
} mover;

/* A turning member's core turned to the engine's clock about its pivot as it stood at time 0 (its
 * translation, velocity times the clock, is applied as for any moving member: offset_of), and the box
 * it covers turning over the call's time, translation left out (c2d_engine_turn_near). */
typedef struct turned_core {
    int member;
    double clock; /* the time it is turned to (NaN: not yet) */
    c2d_vec2 *v, *n;
    c2d_core core;
    double box_horizon; /* the call's time the box is for (NaN: not yet) */
    c2d_aabb box;
} turned_core;

/* Turning members, and vertices of each, whose turned cores fit in the engine's own storage. */
#define TURNED_STACK 4
#define TURNED_STACK_VERTICES 8

/* Storage for one Minkowski hull. */
typedef struct hull_buf {
    c2d_vec2 *v, *nrm;
    int *bvert, *avert;
} hull_buf;

/* One call's motion of a mover through a set: what its legs read of the set and of the call, where its
 * contacts go, its tolerances, and the storage of the two hulls that may stand at once. Set up by
 * c2d_engine_init, freed by c2d_engine_free. */
typedef struct engine {
    const c2d_static_set *set;
    const mover *a;
    /* The set's members in motion: velocity per member (NULL: none moves), the time since the call
     * began at which the queries are asked, and the call's whole time, over which a moving member's
     * box is swept when the grid is asked for candidates. */
    const c2d_vec2 *velocity;
    double clock, horizon;
    /* The time at which c2d_engine_run starts (0 but for a ball of c2d_static_set_step_balls that
     * goes on from a contact with another ball): its members stand where their motions took them by
     * then, and horizon counts from 0, not from clock0. */
    double clock0;
    /* The members that turn: angular velocity per member (NULL: none turns), and their cores turned
     * to the clock, one per turning member (c2d_engine_core). */
    const double *spin;
    /* The members [ride_first, ride_end) (none when equal), one caller's shape turning as one body,
     * whose rigid motion over the call this engine takes about another point: it turns about ride_pivot
     * (where that point stands at time 0), which moves by ride_velocity per unit of time, and reaches
     * ride_reach from it. The same motion over the call, to the bit of rounding (a turn about one point
     * is the same turn about any other, with the pivot's velocity changed to match), ends where the
     * set's own calls and c2d_static_set_advance leave it; only the way there differs: the pivot goes
     * on a straight line, the motion's other points on arcs. The character mover takes its ground's
     * motion about the point it stands on, which then goes straight, as the character's leg does (see
     * character.c). Read through pivot_of, reach_of and velocity_of. */
    int ride_first, ride_end;
    c2d_vec2 ride_pivot, ride_velocity;
    double ride_reach;
    turned_core *turned;
    int n_turned;
    void *turned_heap; /* NULL when they fit in turned_stack */
    turned_core turned_stack[TURNED_STACK];
    c2d_vec2 turned_v[2 * TURNED_STACK * TURNED_STACK_VERTICES];
    /* A mover that turns itself (c2d_static_set_move_turning): its turn over the call in the world
     * (pivot as it stands at offset 0, the pivot's motion and the angle over the call), and the mover,
     * which the run turns in place where the turn stops and which then goes on without turning (NULL:
     * the mover does not turn). turn_angle is the angle it turned. */
    mover *turner;
    c2d_rigid turn;
    double turn_angle;
    const c2d_vec2 *one_way; /* per member, NULL: none */
    c2d_vec2 origin;         /* the mover's position at offset 0 (0 for a ball: its offset is its centre) */
    /* Where contacts go: the plain records, the full ones, or a list that grows to hold all of them
     * (at most one of the three non-NULL). */
    c2d_sweep_contact *plain;
    struct c2d_contact_record *full;
    int capacity;
    c2d_record_list *list;
    const c2d_response *responses;
    c2d_response response;
    /* Touching is decided pair by pair, between the mover and one member, at the tolerance of their
     * own coordinates (member_tol): never the whole set's, which one member far away made as coarse
     * as its coordinates (a ball's contact near the origin came out 0.006 off beside a circle 6e11
     * away). scale is the mover's coordinate magnitude over the call, tol its own tolerance (the
     * least any pair has), and reach scale plus the farthest a member's box reaches across (with its
     * motion over the call): how far around the mover a query must look to find every member that
     * may be within its own tolerance (c2d_engine_query). */
    double scale, tol, reach;
    /* The mover's least width (core and radius): one no wider than a few tolerances across some
     * direction (a tiny ball, a segment) can lie deep inside the union while no shape holds it deeper
     * than touching (see deep_maybe_union). */
    double width;
    hull_buf buf[2];
    void *heap;
    /* Seams recomputed for this call, when its responses ignore or cross shapes that made seams of
     * solid ones: seam_at[i] >= 0 is shape i's offset in seam_ghost and seam_vcone. NULL: none. */
    int *seam_at;
    unsigned char *seam_ghost;
    c2d_cone *seam_vcone;
    c2d_vec2 stack_v[2][2 * STACK_HULL];
    int stack_i[2][2 * STACK_HULL];
} engine;

/* ---- small helpers of every engine file ---- */

static inline int is_solid(c2d_response r)
{
    return r == C2D_RESPONSE_TOUCH || r == C2D_RESPONSE_SLIDE || r == C2D_RESPONSE_BOUNCE;
}

static inline double vec_magnitude(c2d_vec2 v)
{
    return c2d_max_num(fabs(v.x), fabs(v.y)); /* v is checked finite */
}

/* The seams of shape i for this call. */
static inline c2d_seam_info engine_seam_info(const engine *e, int i)
{
    if (e->seam_at && e->seam_at[i] >= 0) {
        c2d_seam_info info;
        info.ghost_edge = e->seam_ghost + e->seam_at[i];
        info.vcone = e->seam_vcone + e->seam_at[i];
        return info;
    }
    return c2d_static_set_seam_info(e->set, i);
}

static inline c2d_response response_of(const engine *e, int i)
{
    return e->responses ? e->responses[c2d_static_set_owner(e->set, i)] : e->response;
}

/* Whether member i's motion is taken about the engine's ride pivot (see engine.ride_first). */
static inline int is_ridden(const engine *e, int i)
{
    return i >= e->ride_first && i < e->ride_end;
}

/* Member i's velocity, and how far it has moved by the engine's clock. */
static inline c2d_vec2 velocity_of(const engine *e, int i)
{
    if (is_ridden(e, i))
        return e->ride_velocity;
    return e->velocity ? e->velocity[i] : v2(0, 0);
}
static inline c2d_vec2 offset_of(const engine *e, int i, double time)
{
    if (is_ridden(e, i))
        return v2_scale(e->ride_velocity, time);
    return e->velocity ? v2_scale(e->velocity[i], time) : v2(0, 0);
}

/* What turning member i turns about where it stands at time 0, and how far its core reaches from there,
 * its radius included. */
static inline c2d_vec2 pivot_of(const engine *e, int i)
{
    return is_ridden(e, i) ? e->ride_pivot : e->set->spin_pivot[i];
}
static inline double reach_of(const engine *e, int i)
{
    return is_ridden(e, i) ? e->ride_reach : e->set->spin_reach[i];
}

/* Whether member i turns (c2d_static_set_set_motion). */
static inline int is_turning(const engine *e, int i)
{
    return e->spin && e->spin[i] != 0;
}

/* The velocity at time tau of the point q of member i's surface (its velocity, and for a turning
 * member the turn about its pivot, which has moved by velocity times tau). */
static inline c2d_vec2 surface_velocity(const engine *e, int i, c2d_vec2 q, double tau)
{
    c2d_vec2 v = velocity_of(e, i);
    if (!is_turning(e, i))
        return v;
    c2d_vec2 r = v2_sub(q, v2_mad(pivot_of(e, i), tau, v));
    double w = e->spin[i];
    return v2(v.x - w * r.y, v.y + w * r.x);
}

/* Whether member i blocks from one side only. */
static inline int is_one_way(const engine *e, int i)
{
    return e->one_way && (e->one_way[i].x != 0 || e->one_way[i].y != 0);
}

/* Whether member i is a shape the mover can be inside and must be pushed out of: solid, and not
 * one-way (a one-way platform is passed through from below, so being inside it is allowed). */
static inline int holds(const engine *e, int i)
{
    return is_solid(response_of(e, i)) && !is_one_way(e, i);
}

/* The touching tolerance of the mover and member i: that of the larger of their coordinates, the
 * member's grown by its motion over the call. It covers the rounding where the two meet: of their
 * placed coordinates, and of the member's edge lines measured from its far vertices (a segment a
 * billion long, lying near the origin at one end, is as coarse there as at the other).
 *
 * It is the one touching tolerance of every test between the two: the mover at a place is inside
 * member i when its signed distance to i's hull is below -tol, touches it within tol either side, and
 * is clear beyond. The overlap test (c2d_deep_hull), a cast's start (c2d_cast_hull, c2d_rhull_cast),
 * push-out's test of whether an exit is free (free_visit, with the seam and corner tests of touching
 * there), pair_exits' test that a crossing lies on both surfaces, and path_visit all use it as it is.
 * Push-out's freedom test used 4 tol: an exit up to 4 tol inside a member counted as free while the
 * overlap test called the mover inside at 1 tol, so a box sunk 1 to 4 tolerances into a floor and
 * touching a wall got the push (0, 0) (the wall's face, where it stood, was an exit), and the set's
 * sweep an overlap with the wall at the floor's depth; compound sweeps had covered the symptom.
 * (path_near's 4 tol is a filter, wider than any cast can reach; the thin-mover test's 4 tol a size.) */
static inline double member_tol(const engine *e, int i)
{
    if (is_turning(e, i))
        return c2d_sweep_tolerance(c2d_max_num(e->scale, vec_magnitude(pivot_of(e, i)) + reach_of(e, i) +
                                                             vec_magnitude(velocity_of(e, i)) * e->horizon));
    if (e->velocity && (e->velocity[i].x != 0 || e->velocity[i].y != 0))
        return c2d_sweep_tolerance(c2d_max_num(
            e->scale, c2d_aabb_magnitude(e->set->entries[i].box) + vec_magnitude(e->velocity[i]) * e->horizon));
    /* The same number: rounding is monotonic, so the tolerance of the larger is the larger one. */
    return c2d_max_num(e->tol, e->set->box_tolerance[i]);
}

/* How far around box to look for every member that comes within its own touching tolerance of box:
 * at least that tolerance. Such a member's box (swept, when it moves) has a point within that
 * distance of box, so its coordinates exceed box's magnitude q by at most its extent and that
 * distance: its tolerance is at most that of scale + extent + q, over 1 - C2D_SWEEP_REL_TOL, which
 * twice the tolerance of reach + q bounds. That is the mover's own tolerance, give or take a factor of
 * a few, unless the set holds a member a good part of its coordinates across; a member far away and
 * small changes nothing. */
static inline double engine_growth(const engine *e, c2d_aabb box)
{
    return 2 * c2d_sweep_tolerance(e->reach + c2d_aabb_magnitude(box));
}

static inline c2d_aabb grow_box(c2d_aabb box, double g)
{
    box.min = v2(box.min.x - g, box.min.y - g);
    box.max = v2(box.max.x + g, box.max.y + g);
    return box;
}

/* engine_growth for the box of a motion's first leg, the mover's box at the start swept by the whole
 * motion, without measuring that box: c2d_engine_init's scale is the larger of the magnitudes of the
 * mover's box at the start and of its motion (a ball's: of its centre and motion, plus its radius),
 * so that box's magnitude is at most twice the scale, up to rounding, which the factor 2 of
 * engine_growth covers many times over. On a ball step's path to its first grid query, where the
 * measurement cost a twelfth of the step. */
static inline double engine_start_growth(const engine *e)
{
    return 2 * c2d_sweep_tolerance(e->reach + 2 * e->scale);
}

/* fmin(x, 0) and fmax(x, 0) for finite x, as comparisons: the libm calls (kept for their NaN rules,
 * which finite input never needs) cost more than the rest of a ball step's box. */
static inline double min0(double x)
{
    return x < 0 ? x : 0.0;
}
static inline double max0(double x)
{
    return x > 0 ? x : 0.0;
}

static inline c2d_aabb mover_box(const mover *a, c2d_vec2 p, c2d_vec2 d, double grow)
{
    c2d_aabb b;
    b.min = v2(a->box.min.x + p.x + min0(d.x) - grow, a->box.min.y + p.y + min0(d.y) - grow);
    b.max = v2(a->box.max.x + p.x + max0(d.x) + grow, a->box.max.y + p.y + max0(d.y) + grow);
    return b;
}

/* The mover's core moved by shift (its offset, less a moving member's own translation when the core is
 * met in that member's frame), its vertices written to room (a->n of them). */
static inline c2d_core mover_core_at(const mover *a, c2d_vec2 shift, c2d_vec2 *room)
{
    for (int k = 0; k < a->n; k++)
        room[k] = v2_add(a->v[k], shift);
    c2d_core ka;
    ka.v = room;
    ka.n = a->nrm;
    ka.count = a->n;
    ka.radius = a->r;
    return ka;
}

/* ---- engine.c: one call's engine, its grid queries and the mover's hulls ---- */

/* Sets up a motion of mover a through set. scale is the mover's coordinate magnitude over the call: at
 * least the larger of the magnitudes of its box at the start and of its whole motion (first_leg's
 * growth counts on that). horizon is the call's time (c2d_engine_set_horizon): 1, or a ball step's dt,
 * so that c2d_engine_run, given the same, need not work the reach out again. */
c2d_status c2d_engine_init(engine *e, const c2d_static_set *set, const mover *a, const c2d_move_options *opt,
                           c2d_response deflt, double scale, double horizon);
/* Frees what c2d_engine_init allocated (the engine itself is the caller's). */
void c2d_engine_free(engine *e);

/* Sets the call's time, over which the moving members move, and the reach that follows from it: a
 * moving member's box sweeps its motion over the call, which it reaches across too, and its
 * coordinates grow by that motion (member_tol); twice the motion bounds both. */
void c2d_engine_set_horizon(engine *e, double horizon);

/* The set's members whose boxes, swept over the call's time when they move, meet box grown by every
 * tolerance that may reach it (engine_growth). */
void c2d_engine_query(const engine *e, c2d_aabb box, c2d_set_visit visit, void *ctx);

/* Member i's core as it stands at the engine's clock, but for the translation by its velocity (which
 * offset_of gives): the set's own core, or for a turning member its core turned by its angular
 * velocity times the clock about its pivot (cached per clock). */
const c2d_core *c2d_engine_core(const engine *e, int i);

/* Whether the cast of a leg against turning member i may find a contact: the mover from offset p along
 * d over a leg within the call's time, p and d relative to the member's translation (as path_near's).
 * 0 when the mover's box over the leg misses the box the member's core covers as it turns over the
 * whole call (c2d_core_turn_box, worked out once per call) by more than 4 tol, so that the mover never
 * comes within the touching tolerance tol of the member, and by enough, for the speeds, that the cast
 * would end before its last step (see engine.c): the cast then finds nothing, bit for bit. */
int c2d_engine_turn_near(const engine *e, int i, c2d_vec2 p, c2d_vec2 d, double tol);

/* The contact point of member i, as it stands at time tau, and the mover at offset p, at feature f of
 * their hull (for a turning member, the feature nearest the mover then); slot as c2d_engine_hull's. */
c2d_vec2 c2d_engine_contact_point(engine *e, int i, const c2d_rhull_hit *f, c2d_vec2 p, double tau, int slot);

/* The hull of shape i against the mover, and the shift that turns the mover's offset p into the point
 * cast against it (at the engine's clock, where a moving member has got to by then). slot (0 or 1) is
 * the engine's hull buffer that holds it, so that two hulls can stand at once; a ball's hull is the
 * member's own core and takes none. */
void c2d_engine_hull(const engine *e, int i, int slot, c2d_rhull *h, c2d_vec2 *shift);

/* ---- the cast of one leg (engine.c) ---- */

typedef struct cast_ctx {
    const engine *e;
    c2d_vec2 p, d;
    double dur; /* the leg's time: a moving member moves by its velocity times this during the leg */
    int cross; /* 0: solid shapes, earliest hit; 1: crossable shapes, every entry */
    double tmax;
    int index;
    c2d_rhull_hit hit;
    double hit_tol; /* the touching tolerance of the mover and shape index */
    /* The crossable shapes the leg enters: x[0 .. nx), in xstack or, past CROSS_STACK, on the heap
     * (owned by whoever set up x; no_memory when it could not grow). */
    int nx, xcap, no_memory;
    struct crossing {
        int index;
        c2d_rhull_hit hit;
    } *x, xstack[CROSS_STACK];
} cast_ctx;

/* Makes c's crossing storage its own stack array, empty. */
static inline void cross_init(cast_ctx *c)
{
    c->x = c->xstack;
    c->xcap = CROSS_STACK;
    c->nx = 0;
    c->no_memory = 0;
}

/* Whether the line of the mover's path from offset p along d passes near shape i, whose touching
 * tolerance is tol. The rounded hull lies inside the box of offsets at which the mover's box and the
 * shape's overlap, and a hit of c2d_rhull_cast lies within a few tol of the hull; so when the line
 * misses that box, grown by 4 tol (far above the rounding here, about 1e-16 of the coordinates), no
 * cast can hit. This is a filter, no tolerance of its own: any margin above the cast's reach (about
 * 2 tol: tol of the surface, tol past an edge's end) would do. The grid query has tested the box's x
 * and y axes; this is the remaining axis, the path's normal, and it spares building and casting
 * against hulls beside a diagonal path. */
static inline int path_near(const engine *e, int i, c2d_vec2 p, c2d_vec2 d, double tol)
{
    if (is_turning(e, i))
        return c2d_engine_turn_near(e, i, p, d, tol); /* its box at the start says nothing of where it turns to */
    const c2d_aabb *b = &e->set->entries[i].box, *a = &e->a->box;
    double m = 4 * tol;
    double lox = b->min.x - a->max.x, hix = b->max.x - a->min.x;
    double loy = b->min.y - a->max.y, hiy = b->max.y - a->min.y;
    double cx = 0.5 * (lox + hix) - p.x, cy = 0.5 * (loy + hiy) - p.y;
    double hx = 0.5 * (hix - lox) + m, hy = 0.5 * (hiy - loy) + m;
    return fabs(d.x * cy - d.y * cx) <= hx * fabs(d.y) + hy * fabs(d.x);
}

/* The leg's motion relative to member i (the mover's, less the member's own over the leg). */
static inline c2d_vec2 leg_relative(const cast_ctx *c, int i)
{
    if (is_ridden(c->e, i))
        return v2_mad(c->d, -c->dur, c->e->ride_velocity);
    return c->e->velocity ? v2_mad(c->d, -c->dur, c->e->velocity[i]) : c->d;
}

/* The cast of leg c against shape i, whose hull h and shift are built, at its touching
 * tolerance; and the grid visitor (ctx: a cast_ctx) that builds each nearby member's hull and casts
 * the leg against it when the member's response is of the leg's kind (solid, or crossable when
 * c->cross). */
void c2d_cast_hull(cast_ctx *c, int i, const c2d_rhull *h, c2d_vec2 shift, double tol);
int c2d_cast_visit(void *ctx, int i);

/* ---- pushout.c: the shortest way out of the union ---- */

/* The solid shape the mover at offset p overlaps most deeply (deeper than touching). */
typedef struct deep_ctx {
    const engine *e;
    c2d_vec2 p;
    int index; /* -1: none */
    double sd;
    c2d_rhull_hit f;
    int near;          /* how many shapes are within touching distance (inside or out), up to 2, a
                        * shape and its copies counted once (see same_member) */
    int near_first;    /* the first of them */
    double near_tol;   /* the largest touching tolerance of the shapes within it (0: none) */
} deep_ctx;

static inline void deep_init(deep_ctx *c, const engine *e, c2d_vec2 p)
{
    c->e = e;
    c->p = p;
    c->index = -1;
    c->sd = -e->tol;
    c->f.k = 0;
    c->f.is_edge = 0;
    c->f.t = 0;
    c->f.normal = v2(0, 1);
    c->near = 0;
    c->near_first = -1;
    c->near_tol = 0;
}

/* Whether the mover, though no shape holds it deeper than touching, may be inside their union: a ball
 * smaller than the tolerance centred on the seam between two bricks is inside each by less than the
 * tolerance, and deep inside the row; so is a segment lying along the joint of two stacked bricks.
 * That takes a thin mover: one straddling a seam is as deep in one of the two shapes as half its width
 * across the seam. It lies within touching distance of two shapes, and may be inside either or
 * neither: lying exactly along their joint, rounding decides (a segment along the joint of two bricks
 * turned by an angle came out a hair outside both about one time in ten, and was not pushed out).
 * Only the exits can tell, and push_round looks: one within the touching tolerance, where the mover
 * already is, says it is outside (path_needed). */
static inline int deep_maybe_union(const deep_ctx *c)
{
    return c->near >= 2 && c->index < 0 && !(c->e->width > 4 * c->near_tol);
}

/* The depth test of shape i, whose hull h and shift are built, at its touching tolerance. */
void c2d_deep_hull(deep_ctx *c, int i, const c2d_rhull *h, c2d_vec2 shift, double tol);

/* One round of push-out at offset p. Returns 0 when the mover overlaps nothing (deeper than touching),
 * 1 with the new offset, shape index and feature (normal facing the mover) otherwise, or -1 when memory
 * ran out. The exits are searched outwards in boxes of doubling size, so that a mover deep inside a
 * block of bricks whose gaps are too narrow for it still finds the nearest way out of the block; an
 * exit found within the searched distance cannot be beaten by a shape outside the box. Ties go to the
 * lowest index, then to the feature order. Exits whose straight path would cross another shape (a wall
 * between the mover and the world outside) are taken only when there is no other. If no exit is free
 * (the mover is walled in), the deepest shape's own way out is taken and the next round goes on from
 * there. On 1, *out_depth (when out_depth is not NULL) is the depth of the deepest shape, or the way
 * out's length for a mover in the union that no shape holds deeper than touching (deep_maybe_union). */
int c2d_push_round(const engine *e, c2d_vec2 p, c2d_vec2 *out_p, int *out_index, c2d_rhull_hit *out_f,
                   double *out_depth);

/* ---- run.c: one move or ball step, leg by leg ---- */

/* Runs the mover from offset *p with velocity *vel for time T; updates both. The contacts go where
 * the engine says. */
c2d_status c2d_engine_run(engine *e, c2d_vec2 *p_io, c2d_vec2 *vel_io, double T, double restitution, double friction,
                          c2d_move_result *res);

/* Pushes the mover at offset *p out of the solid members as they stand at the clock (0 to the call's
 * time), each round recorded as a push-out (pushed_out 1, t the clock's fraction of the call, velocity
 * zero). The character mover's last word where a turning member carried it (see character.c). */
c2d_status c2d_engine_settle(engine *e, c2d_vec2 *p, double clock, c2d_move_result *res);

/* ---- resolve.c: the public calls' mover ---- */

/* The mover of a shape: its core placed in the world (C2D_ERR_NOT_CONVEX for a chain or concave
 * polygon, C2D_ERR_NO_MEMORY). Free with c2d_mover_free. */
c2d_status c2d_mover_of_shape(const c2d_shape *s, mover *m);
void c2d_mover_free(mover *m);

#endif /* C2D_ENGINE_H */
