/* run.c - the run of one move or ball step through a static set, leg by leg: the first leg (made
 * together with the overlap test, so that a mover starting clear costs one grid query), the loop of
 * legs, each ended by the earliest solid hit and its response (touch, slide, bounce, with restitution
 * and friction, in the frame of a moving member), the crossable shapes each leg enters, and the
 * contact records. Layer 4, sets: calls pushout.c and engine.c. */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include "trig.h"
#include "turnsweep.h"

/* More contacts than this in one call means a wedge narrower than the mover: stop instead of spinning. */
#define MAX_CONTACTS 256
/* Contacts in a row with one turning member after which the mover rides it for the rest of the call. A
 * turning face that pushes a mover (a flipper sweeping a ball along) meets it again and again, each
 * bounce sooner than the last: the rate of its surface along the normal keeps changing as it turns, so
 * the bounces never end (a Zeno sequence), and stopping the call there would leave the member to turn
 * on through the mover. Riding it is where those bounces lead: moving with its surface. */
#define CARRY_AFTER 8

/* What the carry along a turning member meets first: every other solid member the mover could reach on
 * the arc, swept as it turns with the member (engine clock at the carry's start). */
typedef struct carry_ctx {
    const engine *e;
    int i;             /* the member carrying the mover */
    c2d_vec2 p;        /* the mover's offset at the start */
    c2d_rigid motion;  /* the carry over its time, in the world */
    double span;       /* the carry's time */
    const mover *m;    /* what is swept: the mover, or the disc that holds it (see carry) */
    c2d_vec2 *v;       /* room for its core */
    double tmax;       /* the earliest meeting so far (1: none) */
    int no_memory;
} carry_ctx;

static int carry_visit(void *ctx, int j)
{
    carry_ctx *c = (carry_ctx *)ctx;
    const engine *e = c->e;
    if (j == c->i || !holds(e, j) || c2d_static_set_owner(e->set, j) == c2d_static_set_owner(e->set, c->i))
        return 0;
    double span = c->span;
    /* In the frame that member j's own translation by the clock is taken out of. */
    c2d_vec2 off = offset_of(e, j, e->clock);
    c2d_core ka = mover_core_at(c->m, v2_sub(c->p, off), c->v);
    const c2d_core *kb = c2d_engine_core(e, j);
    double tol = member_tol(e, j);
    if (c->m != e->a) {
        /* The disc may already overlap a shape the mover itself only touches: then no ride. */
        c2d_vec2 pa, pb;
        if (c2d_core_distance(&ka, kb, &pa, &pb) - ka.radius - kb->radius < -tol) {
            c->tmax = 0;
            return 1;
        }
    }
    c2d_rigid ma = c->motion, mb = c2d_rigid_still();
    ma.c = v2_sub(ma.c, off);
    mb.v = v2_scale(velocity_of(e, j), span);
    if (is_turning(e, j)) {
        mb.c = pivot_of(e, j);
        mb.w = e->spin[j] * span;
    }
    int found = 0;
    c2d_rigid_hit h;
    if (c2d_core_sweep_rigid(&ka, &ma, kb, &mb, c->tmax, tol, &found, &h) != C2D_OK)
        c->no_memory = 1;
    else if (found && h.t < c->tmax)
        c->tmax = h.t;
    return 0;
}

/* Turns the mover that turns (e->turner) in place by the angle whose sine and cosine are s and cs,
 * about the point c of its offset-0 frame, and its reference point (e->origin) with it. */
static void turn_mover(engine *e, c2d_vec2 c, double s, double cs)
{
    mover *a = e->turner;
    c2d_rigid m = c2d_rigid_still();
    m.c = c;
    c2d_vec2 *v = (c2d_vec2 *)a->v, *nrm = (c2d_vec2 *)a->nrm; /* the turner's own storage */
    c2d_aabb box;
    box.min = v2(INFINITY, INFINITY);
    box.max = v2(-INFINITY, -INFINITY);
    for (int k = 0; k < a->n; k++) {
        v[k] = c2d_rigid_apply(&m, 0, s, cs, v[k]);
        if (nrm)
            nrm[k] = v2(cs * nrm[k].x - s * nrm[k].y, s * nrm[k].x + cs * nrm[k].y);
        box.min = v2(fmin(box.min.x, v[k].x), fmin(box.min.y, v[k].y));
        box.max = v2(fmax(box.max.x, v[k].x), fmax(box.max.y, v[k].y));
    }
    a->box.min = v2(box.min.x - a->r, box.min.y - a->r);
    a->box.max = v2(box.max.x + a->r, box.max.y + a->r);
    e->origin = c2d_rigid_apply(&m, 0, s, cs, e->origin);
}

/* Carries the mover at offset p, in touch with turning member i at time tau, along with the member
 * towards time T: turned about its pivot and moved with it, swept against every other solid member on
 * the way (it stops where it meets one, as a ball a flipper pins against a post). Its velocity
 * becomes that of the member's surface where it ends. Returns 0, or -1 when memory ran out. */
static int carry(engine *e, int i, double tau, double T, c2d_vec2 *p, c2d_vec2 *vel)
{
    const mover *a = e->a;
    double span = T - tau;
    c2d_vec2 v = velocity_of(e, i), c = v2_mad(pivot_of(e, i), tau, v);
    carry_ctx cc;
    c2d_vec2 own[STACK_HULL];
    cc.e = e;
    cc.i = i;
    cc.p = *p;
    cc.motion.c = c;
    cc.motion.v = v2_scale(v, span);
    cc.motion.w = e->spin[i] * span;
    cc.span = span;
    /* A mover that turns turns with the member, and is swept so. One that cannot (a plain move) is only
     * carried along the arc, keeping its angle: a ball is the same whichever way it turns, but any
     * other mover is swept as the disc about its position that holds it at every angle, which never
     * lets the ride end inside another shape (it stops a little early, or not at all when that disc
     * already overlaps one). */
    mover disc;
    c2d_vec2 at = e->origin;
    cc.m = a;
    if (!e->turner && !(a->n == 1 && a->v[0].x == at.x && a->v[0].y == at.y)) {
        double rd = 0;
        for (int k = 0; k < a->n; k++)
            rd = c2d_max_num(rd, v2_len(v2_sub(a->v[k], at)));
        disc.v = &at;
        disc.nrm = NULL;
        disc.n = 1;
        disc.r = rd + a->r;
        cc.m = &disc;
    }
    cc.v = a->n > STACK_HULL ? (c2d_vec2 *)malloc((size_t)a->n * sizeof(c2d_vec2)) : own;
    cc.tmax = 1.0;
    cc.no_memory = !cc.v;
    if (cc.v) {
        /* Everything the mover can reach on the arc: within its farthest point's distance from the
         * pivot, swept by the pivot's own motion. */
        double reach = 0;
        for (int k = 0; k < cc.m->n; k++)
            reach = c2d_max_num(reach, v2_len(v2_sub(v2_add(cc.m->v[k], *p), c)));
        reach += cc.m->r;
        c2d_aabb box;
        box.min = v2(c.x - reach + min0(cc.motion.v.x), c.y - reach + min0(cc.motion.v.y));
        box.max = v2(c.x + reach + max0(cc.motion.v.x), c.y + reach + max0(cc.motion.v.y));
        double clock = e->clock;
        e->clock = tau;
        c2d_engine_query(e, box, carry_visit, &cc);
        e->clock = clock;
        if (cc.v != own)
            free(cc.v);
    }
    if (cc.no_memory)
        return -1;
    double u = cc.tmax * span, s, cs;
    c2d_sincos(e->spin[i] * u, &s, &cs);
    c2d_vec2 r = v2_sub(v2_add(e->origin, *p), c);
    c2d_vec2 q = v2(c.x + v.x * u + (cs * r.x - s * r.y), c.y + v.y * u + (s * r.x + cs * r.y));
    if (e->turner) {
        /* A mover that may turn turns with the member, as its sweep above turned it. */
        turn_mover(e, v2_sub(c, *p), s, cs);
        e->turn_angle += e->spin[i] * u;
        *p = v2_mad(*p, u, v);
    } else {
        *p = v2_sub(q, e->origin);
    }
    *vel = surface_velocity(e, i, q, tau + u);
    return 0;
}

/* ---- the first leg ---- */

/* The first leg's query also answers the push-out's first question, whether the mover starts inside a
 * solid shape: the shapes whose boxes meet the mover's box at the start are among those the leg's box
 * meets, and their hulls serve both tests. When it starts clear (almost always), the push-out rounds
 * have nothing to do and the leg's cast is already made: one grid query and one hull per nearby shape
 * instead of two of each. */
typedef struct first_ctx {
    cast_ctx *cast;
    deep_ctx deep;
    c2d_aabb box0; /* the mover's box at the start, as c2d_push_round queries it */
} first_ctx;

static int first_visit(void *ctx, int i)
{
    first_ctx *f = (first_ctx *)ctx;
    cast_ctx *c = f->cast;
    const engine *e = c->e;
    if (!is_solid(response_of(e, i)))
        return 0;
    const c2d_aabb *b = &e->set->entries[i].box, *b0 = &f->box0;
    /* The first leg starts at time 0, where every member stands as placed. */
    int at_start = holds(e, i) && b->min.x <= b0->max.x && b0->min.x <= b->max.x && b->min.y <= b0->max.y &&
                   b0->min.y <= b->max.y;
    double tol = member_tol(e, i);
    int on_path = path_near(e, i, c->p, leg_relative(c, i), tol);
    if (!at_start && !on_path)
        return 0;
    c2d_rhull h;
    c2d_vec2 shift;
    c2d_engine_hull(e, i, 0, &h, &shift);
    if (at_start)
        c2d_deep_hull(&f->deep, i, &h, shift, tol);
    if (on_path)
        c2d_cast_hull(c, i, &h, shift, tol);
    return 0;
}

/* Runs the first leg from p along d into c (as the leg loop would) together with the push-out's
 * overlap test. Returns 1 when the mover starts clear, so that c holds the leg's solid hit; 0 when it
 * starts inside a shape, and the push-out must run first. */
static int first_leg(const engine *e, c2d_vec2 p, c2d_vec2 d, double dur, cast_ctx *c)
{
    first_ctx f;
    f.cast = c;
    c->e = e;
    c->p = p;
    c->d = d;
    c->dur = dur;
    c->cross = 0;
    c->tmax = 1.0;
    c->index = -1;
    c->nx = 0;
    deep_init(&f.deep, e, p);
    /* The start's box grown as the path's: at worst a few more members for the depth test, which
     * decides by each one's own tolerance. */
    c2d_aabb box = mover_box(e->a, p, d, 0.0);
    double g = engine_start_growth(e);
    f.box0 = grow_box(mover_box(e->a, p, v2(0, 0), 0.0), g);
    c2d_static_set_query(e->set, grow_box(box, g), e->horizon, first_visit, &f);
    return f.deep.index < 0 && !deep_maybe_union(&f.deep);
}

/* ---- the legs ---- */

/* Writes contact c, the mover then at offset p with velocity vel, to the engine's records when there
 * is room; counts it in any case. */
static void record(const engine *e, c2d_move_result *res, const c2d_sweep_contact *c, c2d_vec2 p, c2d_vec2 vel)
{
    c2d_contact_record *r = NULL;
    if (e->list)
        r = c2d_record_list_push(e->list);
    else if (res->count < e->capacity && e->plain)
        e->plain[res->count] = *c;
    else if (res->count < e->capacity)
        r = &e->full[res->count];
    if (r) {
        r->contact = *c;
        r->position = v2_add(e->origin, p);
        r->velocity = vel;
        r->id = 0;
        r->user = c2d_static_set_value(e->set, c->index); /* a world move puts the entry's in its place */
    }
    res->count++;
}

/* The contact record for shape i at mover offset p through hull feature f, at time tau of the call
 * (where a moving member then stands). */
static c2d_sweep_contact make_contact(engine *e, int i, const c2d_rhull_hit *f, c2d_vec2 p, double tau, double t,
                                      c2d_response r, int pushed)
{
    c2d_sweep_contact c;
    memset(&c, 0, sizeof c); /* the padding after index too: the same bytes every time, comparable whole */
    c.index = c2d_static_set_owner(e->set, i); /* the caller's shape, of which i may be a part */
    c.t = t;
    c.normal = f->normal;
    /* The point on the shape's surface: midway point moved out to B's side (they coincide at a hit). */
    c.point = c2d_engine_contact_point(e, i, f, p, tau, 1);
    c.response = r;
    c.pushed_out = pushed;
    return c;
}

static int compare_cross(const void *x, const void *y)
{
    const c2d_sweep_contact *a = (const c2d_sweep_contact *)x, *b = (const c2d_sweep_contact *)y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (a->index > b->index) - (a->index < b->index);
}

/* A crossing of one leg as recorded: the contact (first, for compare_cross) and where the mover was. */
typedef struct cross_rec {
    c2d_sweep_contact c;
    c2d_vec2 p;
} cross_rec;

/* Grows c2d_engine_run's per-leg crossing arrays to hold n each (realloc keeps what *entered holds). */
static int grow_crossings(cross_rec **xs, int **now, int **entered, int *cap, int n)
{
    cross_rec *a = (cross_rec *)realloc(*xs, (size_t)n * sizeof **xs);
    if (!a)
        return 0;
    *xs = a;
    int *b = (int *)realloc(*now, (size_t)n * sizeof(int));
    if (!b)
        return 0;
    *now = b;
    int *en = (int *)realloc(*entered, (size_t)n * sizeof(int));
    if (!en)
        return 0;
    *entered = en;
    *cap = n;
    return 1;
}

/* ---- a mover that turns itself ---- */

/* What the mover's own turn meets: every member it can reach while it turns, each swept against the
 * member's own motion (from the call's start); the first solid one it meets, and the crossable ones it
 * enters on the way. */
typedef struct turn_ctx {
    const engine *e;
    c2d_vec2 p;        /* the mover's offset */
    double T;          /* the call's time */
    c2d_vec2 *v;       /* room for the mover's placed core */
    double tmax;       /* the earliest solid meeting so far (1: none) */
    int index;         /* its member, or -1 */
    c2d_rigid_hit hit;
    int blocked;       /* the mover stands inside a solid member: it cannot turn */
    cross_rec *xs;     /* the crossable members entered (xs[0 .. nx), heap) */
    int nx, xcap;
    int no_memory;
} turn_ctx;

static int turn_visit(void *ctx, int j)
{
    turn_ctx *c = (turn_ctx *)ctx;
    const engine *e = c->e;
    c2d_response r = response_of(e, j);
    if (r == C2D_RESPONSE_NONE)
        return 0;
    int cross = r == C2D_RESPONSE_CROSS;
    double tol = member_tol(e, j);
    c2d_rhull h;
    c2d_vec2 shift;
    c2d_rhull_hit f;
    c2d_engine_hull(e, j, 0, &h, &shift);
    if (c2d_rhull_signed_distance(&h, v2_add(c->p, shift), &f) < -tol) {
        /* Inside: a solid member the push-out could not leave holds the turn; a crossable member was
         * reported before, and a one-way one is being passed through. */
        if (holds(e, j))
            c->blocked = 1;
        return 0;
    }
    c2d_core ka = mover_core_at(e->a, c->p, c->v);
    c2d_rigid ma = e->turn, mb = c2d_rigid_still();
    ma.c = v2_add(ma.c, c->p);
    mb.v = v2_scale(velocity_of(e, j), c->T);
    if (is_turning(e, j)) {
        mb.c = pivot_of(e, j);
        mb.w = e->spin[j] * c->T;
    }
    int found = 0;
    c2d_rigid_hit rh;
    if (c2d_core_sweep_rigid(&ka, &ma, c2d_engine_core(e, j), &mb, cross ? 1.0 : c->tmax, tol, &found, &rh) !=
        C2D_OK) {
        c->no_memory = 1;
        return 0;
    }
    if (!found)
        return 0;
    c2d_vec2 n = v2_neg(rh.normal); /* the member's, towards the mover */
    if (cross) {
        if (c->nx == c->xcap) {
            int cap = c->xcap ? 2 * c->xcap : 8;
            cross_rec *grown = (cross_rec *)realloc(c->xs, (size_t)cap * sizeof *grown);
            if (!grown) {
                c->no_memory = 1;
                return 0;
            }
            c->xs = grown;
            c->xcap = cap;
        }
        cross_rec *x = &c->xs[c->nx++];
        memset(&x->c, 0, sizeof x->c);
        x->c.index = c2d_static_set_owner(e->set, j);
        x->c.t = rh.t;
        x->c.point = rh.point;
        x->c.normal = n;
        x->c.response = C2D_RESPONSE_CROSS;
        return 0;
    }
    if (is_one_way(e, j) && !(v2_dot(n, e->one_way[j]) > C2D_SWEEP_DIR_TOL))
        return 0;
    if (c->index < 0 || rh.t < c->tmax || (rh.t <= c->tmax && j < c->index)) {
        c->index = j;
        c->hit = rh;
        c->tmax = rh.t;
    }
    return 0;
}

/* Where the mover's reference point (e->origin at offset 0) is at fraction t of its turn, as an offset
 * from e->origin (so p itself at t = 0), the mover standing at offset p at the turn's start. */
static c2d_vec2 turn_offset(const engine *e, c2d_vec2 p, double t)
{
    double s, cs;
    c2d_sincos(e->turn.w * t, &s, &cs);
    c2d_rigid m = e->turn;
    m.c = v2_add(m.c, p);
    return v2_sub(c2d_rigid_apply(&m, t, s, cs, v2_add(e->origin, p)), e->origin);
}

/* Turns the mover (e->turner) from offset *p over the call's time T until it first meets a solid member,
 * recording the crossable members it enters before that; then turns the mover in place to where it
 * stopped, moves *p with its pivot, and returns the fraction of the call the turn lasted in *t_stop. The
 * solid contact where the turn stopped goes to *stop (stop->index -1: none), for the run to record or
 * to leave to the leg that meets it again at once. Returns 0, or -1 when memory ran out. */
static int turn_phase(engine *e, c2d_vec2 *p, double T, c2d_vec2 vel, c2d_move_result *res, double *t_stop,
                      c2d_sweep_contact *stop, int *stop_member)
{
    mover *a = e->turner;
    turn_ctx tc;
    c2d_vec2 own[STACK_HULL];
    tc.e = e;
    tc.p = *p;
    tc.T = T;
    tc.v = a->n > STACK_HULL ? (c2d_vec2 *)malloc((size_t)a->n * sizeof(c2d_vec2)) : own;
    tc.tmax = 1.0;
    tc.index = -1;
    tc.blocked = 0;
    tc.xs = NULL;
    tc.nx = tc.xcap = 0;
    tc.no_memory = !tc.v;
    stop->index = -1;
    *stop_member = -1;
    *t_stop = 0;
    if (tc.v) {
        /* Everything the mover can reach while it turns: within its farthest point's distance from the
         * pivot, swept by the pivot's motion. */
        c2d_vec2 c = v2_add(e->turn.c, *p), d = e->turn.v;
        double reach = 0;
        for (int k = 0; k < a->n; k++)
            reach = c2d_max_num(reach, v2_len(v2_sub(v2_add(a->v[k], *p), c)));
        reach += a->r;
        c2d_aabb box;
        box.min = v2(c.x - reach + min0(d.x), c.y - reach + min0(d.y));
        box.max = v2(c.x + reach + max0(d.x), c.y + reach + max0(d.y));
        e->clock = 0;
        c2d_engine_query(e, box, turn_visit, &tc);
        if (tc.v != own)
            free(tc.v);
    }
    if (tc.no_memory) {
        free(tc.xs);
        return -1;
    }
    if (tc.blocked) {
        free(tc.xs);
        return 0;
    }
    double ts = tc.index >= 0 ? tc.hit.t : 1.0;
    /* The crossings before the stop (one entered just as the turn stops is met again by the next leg). */
    int n = 0;
    for (int k = 0; k < tc.nx; k++)
        if (tc.xs[k].c.t < ts || tc.index < 0)
            tc.xs[n++] = tc.xs[k];
    if (n > 1)
        qsort(tc.xs, (size_t)n, sizeof tc.xs[0], compare_cross);
    for (int k = 0; k < n; k++)
        record(e, res, &tc.xs[k].c, turn_offset(e, *p, tc.xs[k].c.t), vel);
    free(tc.xs);
    /* Turn the mover in place to where it stops, about its pivot at offset 0. */
    double s, cs;
    c2d_sincos(e->turn.w * ts, &s, &cs);
    turn_mover(e, e->turn.c, s, cs);
    *p = v2_mad(*p, ts, e->turn.v);
    e->turn_angle = e->turn.w * ts;
    *t_stop = ts;
    if (tc.index >= 0) {
        memset(stop, 0, sizeof *stop);
        stop->index = c2d_static_set_owner(e->set, tc.index);
        stop->t = ts;
        stop->point = tc.hit.point;
        stop->normal = v2_neg(tc.hit.normal);
        stop->response = response_of(e, tc.index);
        *stop_member = tc.index;
    }
    return 0;
}

c2d_status c2d_engine_run(engine *e, c2d_vec2 *p_io, c2d_vec2 *vel_io, double T, double restitution, double friction,
                          c2d_move_result *res)
{
    c2d_vec2 p = *p_io, vel = *vel_io;
    memset(res, 0, sizeof *res);
    /* Members' times: from clock0, 0 but for a ball going on from a contact with another ball. */
    double t0 = e->clock0, horizon = t0 + T;
    if (!(e->horizon == horizon)) { /* else c2d_engine_init worked out the same */
        if (e->velocity || e->spin)
            c2d_engine_set_horizon(e, horizon);
        else
            e->horizon = horizon;
    }
    e->clock = t0;
    /* Moving members can run into a mover that stands still: then a leg is cast even without motion. */
    int moving = 0;
    for (int k = 0; k < e->set->loose_count && (e->velocity || e->spin) && !moving; k++) {
        int m = e->set->loose[k];
        c2d_vec2 w = velocity_of(e, m);
        moving = e->set->enabled[m] && (w.x != 0 || w.y != 0 || is_turning(e, m));
    }
    cast_ctx c;
    cross_init(&c);
    /* The first leg made with the overlap test (see first_leg): then the push-out has nothing to do. */
    /* (A mover that turns makes its first leg after the turn.) */
    /* (Its overlap test reads the members' boxes where they stand at time 0.) */
    int first_made = !(e->turner && e->turn.w != 0) && T > 0 && t0 == 0 && (moving || v2_len(v2_scale(vel, T)) > 0) &&
                     first_leg(e, p, v2_scale(vel, T), T, &c);
    for (int round = 0; round < MAX_PUSHES && !first_made; round++) {
        c2d_vec2 np;
        int index;
        c2d_rhull_hit f;
        int r = c2d_push_round(e, p, &np, &index, &f, NULL);
        if (r < 0)
            return C2D_ERR_NO_MEMORY;
        if (r == 0)
            break;
        p = np;
        c2d_sweep_contact pc = make_contact(e, index, &f, p, t0, 0.0, response_of(e, index), 1);
        record(e, res, &pc, p, vel);
    }
    int any_cross = e->response == C2D_RESPONSE_CROSS;
    if (e->responses)
        for (int i = 0; i < e->set->n_public && !any_cross; i++)
            any_cross = e->responses[i] == C2D_RESPONSE_CROSS;
    double speed = v2_len(vel), remaining = T, elapsed = 0;
    /* A mover that turns: its turn first, up to its first solid contact, whose record waits for the
     * next leg (which meets it again at once when the motion presses on, and records it with its
     * response). */
    c2d_sweep_contact turn_stop;
    int stop_member = -1;
    c2d_vec2 origin0 = e->origin;
    if (e->turner && e->turn.w != 0 && T > 0) {
        double ts;
        if (turn_phase(e, &p, T, vel, res, &ts, &turn_stop, &stop_member) < 0)
            return C2D_ERR_NO_MEMORY;
        elapsed = ts * T;
        remaining = T - elapsed;
    }
    c2d_vec2 last_n = v2(0, 0); /* normal of the previous contact, while no distance was covered since */
    int pinned = 0;
    int chased_by = -1, chased = 0; /* the turning member met in the last contacts, and how often */
    /* Crossable shapes entered exactly where the previous leg ended: the next leg starts touching them
     * and would meet them again at its start. */
    int *entered = NULL, n_entered = 0;
    /* Per leg with crossings: each as recorded, and which of them the leg ends in; grown with the
     * most crossings of a leg. */
    cross_rec *xs = NULL;
    int *now = NULL, xs_cap = 0;
    c2d_status status = C2D_OK;
    while (remaining > 0) {
        c2d_vec2 d = v2_scale(vel, remaining);
        double dl = v2_len(d);
        if (!(dl > 0) && !moving)
            break;
        e->clock = t0 + elapsed;
        if (first_made) {
            first_made = 0;
        } else {
            c.e = e;
            c.p = p;
            c.d = d;
            c.dur = remaining;
            c.cross = 0;
            c.tmax = 1.0;
            c.index = -1;
            c.nx = 0;
            c2d_engine_query(e, mover_box(e->a, p, d, 0.0), c2d_cast_visit, &c);
        }
        if (c.no_memory) { /* a turning member's cast could not be made: it might have been met */
            status = C2D_ERR_NO_MEMORY;
            break;
        }
        double t = c.index >= 0 ? c.hit.t : 1.0;
        if (stop_member >= 0) {
            /* The turn's stop, unless this leg meets its member again where it starts. */
            if (!(c.index == stop_member && t * dl <= c.hit_tol))
                record(e, res, &turn_stop, p, vel);
            stop_member = -1;
        }
        if (any_cross) {
            c.cross = 1;
            c.tmax = t;
            c2d_engine_query(e, mover_box(e->a, p, d, 0.0), c2d_cast_visit, &c);
            if (c.no_memory || (c.nx > xs_cap && !grow_crossings(&xs, &now, &entered, &xs_cap, c.nx))) {
                status = C2D_ERR_NO_MEMORY;
                break;
            }
            int nxs = 0, n_now = 0;
            for (int k = 0; k < c.nx; k++) {
                const struct crossing *x = &c.x[k];
                double xtol = member_tol(e, x->index);
                int again = 0;
                for (int j = 0; j < n_entered && !again; j++)
                    again = entered[j] == x->index && x->hit.t * dl <= xtol;
                if (again)
                    continue;
                /* Entered where the leg ends: within the crossing's tolerance or the solid one's. */
                if (c.index >= 0 && (t - x->hit.t) * dl <= c2d_max_num(xtol, c.hit_tol))
                    now[n_now++] = x->index;
                double tau = elapsed + x->hit.t * remaining;
                xs[nxs].p = v2_mad(p, x->hit.t, d);
                xs[nxs].c = make_contact(e, x->index, &x->hit, xs[nxs].p, t0 + tau, tau / T, C2D_RESPONSE_CROSS, 0);
                nxs++;
            }
            if (nxs > 1)
                qsort(xs, (size_t)nxs, sizeof xs[0], compare_cross);
            for (int k = 0; k < nxs; k++)
                record(e, res, &xs[k].c, xs[k].p, vel);
            if (n_now > 0)
                memcpy(entered, now, (size_t)n_now * sizeof now[0]);
            n_entered = n_now;
        }
        if (c.index < 0) {
            p = v2_add(p, d);
            res->travelled += dl;
            break;
        }
        p = v2_mad(p, t, d);
        res->travelled += t * dl;
        if (t * dl > c.hit_tol)
            pinned = 0;
        elapsed += t * remaining;
        remaining -= t * remaining;
        c2d_response r = response_of(e, c.index);
        c2d_sweep_contact ct = make_contact(e, c.index, &c.hit, p, t0 + elapsed, elapsed / T, r, 0);
        /* The response acts on the motion relative to the shape met, which is the motion itself unless
         * the shape moves: a moving paddle is a wall in its own frame, and a turning flipper's face moves
         * where the mover meets it at its velocity there. */
        c2d_vec2 w = surface_velocity(e, c.index, ct.point, t0 + elapsed), rel = v2_sub(vel, w);
        int still = w.x == 0 && w.y == 0, stop = 0;
        c2d_vec2 n = c.hit.normal;
        double vn = v2_dot(rel, n);
        c2d_vec2 prev_n = last_n;
        int was_pinned = pinned;
        last_n = n;
        pinned = 1;
        if (r == C2D_RESPONSE_TOUCH) {
            /* Stopped against the shape: at rest, or carried along by a moving one. */
            rel = v2(0, 0);
            stop = still;
        } else if (r == C2D_RESPONSE_SLIDE) {
            rel = v2_mad(rel, -vn, n);
            /* Slid into a second surface without moving: in a crease (two surfaces meeting at less
             * than a half-turn) the only motion allowed by both is none. Without this the motion
             * would ping-pong between them, shrinking but never vanishing. */
            if (was_pinned && v2_dot(rel, prev_n) < -C2D_SWEEP_DIR_TOL * v2_len(rel))
                rel = v2(0, 0);
            speed = v2_len(still ? rel : v2_add(rel, w)); /* what later elastic bounces keep */
        } else if (vn < 0) {
            /* Bounce: the normal part turns round scaled by restitution; friction takes away up to
             * friction times the normal impulse from the tangential part. A corner's normal is the
             * line from the corner to the centre at contact, which is seed 004's beta = 2 theta - alpha. */
            c2d_vec2 vt = v2_mad(rel, -vn, n);
            double jn = -(1.0 + restitution) * vn;
            c2d_vec2 nv = v2_mad(rel, jn, n);
            double tl = v2_len(vt);
            if (friction > 0 && tl > 0)
                nv = v2_mad(nv, -fmin(tl, friction * jn) / tl, vt);
            if (restitution >= 1 && friction <= 0 && still) {
                double l = v2_len(nv);
                if (l > 0)
                    nv = v2_scale(nv, speed / l); /* the speed is kept exactly, not just to rounding */
            }
            int facing = v2_dot(n, prev_n) < -1 + 1e-6;
            if (was_pinned && facing && v2_dot(nv, prev_n) < -C2D_SWEEP_DIR_TOL * v2_len(nv)) {
                /* Jammed between two facing surfaces it touches at once (a slot exactly its size):
                 * bouncing would hit the other at once, for ever. Keep only what both allow, as a
                 * slide. (In a wedge the bounces turn the motion round and out: those go on.) */
                nv = v2_mad(rel, -vn, n);
                if (v2_dot(nv, prev_n) < -C2D_SWEEP_DIR_TOL * v2_len(nv))
                    nv = v2(0, 0);
                speed = v2_len(still ? nv : v2_add(nv, w));
            }
            rel = nv;
            if (!still)
                speed = v2_len(v2_add(rel, w)); /* a moving paddle changes the speed it hands back */
        }
        c2d_vec2 after = still ? rel : v2_add(rel, w); /* adding a zero would turn a -0 into +0 */
        record(e, res, &ct, p, after);
        if (res->count > MAX_CONTACTS) {
            res->truncated = 1; /* cut short before this contact's response, as it always was */
            break;
        }
        vel = after;
        if (stop)
            break;
        chased = is_turning(e, c.index) && c.index == chased_by ? chased + 1 : 1;
        chased_by = c.index;
        if (is_turning(e, c.index) && chased >= CARRY_AFTER && remaining > 0) {
            c2d_vec2 from = p;
            if (carry(e, c.index, t0 + elapsed, t0 + T, &p, &vel) < 0) {
                status = C2D_ERR_NO_MEMORY;
                break;
            }
            res->travelled += v2_len(v2_sub(p, from));
            break;
        }
    }
    if (stop_member >= 0 && status == C2D_OK)
        record(e, res, &turn_stop, p, vel); /* no leg after the turn */
    if (c.x != c.xstack)
        free(c.x);
    free(xs);
    free(now);
    free(entered);
    if (status != C2D_OK)
        return status;
    res->displacement = v2_sub(p, *p_io);
    if (e->turner) /* the reference point turned about the pivot too */
        res->displacement = v2_add(res->displacement, v2_sub(e->origin, origin0));
    res->velocity = vel;
    *p_io = p;
    *vel_io = vel;
    return C2D_OK;
}

c2d_status c2d_engine_settle(engine *e, c2d_vec2 *p, double clock, c2d_move_result *res)
{
    double was = e->clock;
    c2d_status st = C2D_OK;
    e->clock = clock;
    for (int round = 0; round < MAX_PUSHES; round++) {
        c2d_vec2 np;
        int index;
        c2d_rhull_hit f;
        int r = c2d_push_round(e, *p, &np, &index, &f, NULL);
        if (r < 0) {
            st = C2D_ERR_NO_MEMORY;
            break;
        }
        if (r == 0)
            break;
        *p = np;
        c2d_sweep_contact pc = make_contact(e, index, &f, *p, clock, clock / e->horizon, response_of(e, index), 1);
        record(e, res, &pc, *p, v2(0, 0));
    }
    e->clock = was;
    return st;
}
