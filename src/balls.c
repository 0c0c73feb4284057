/* balls.c - many balls stepped at once through a static set and against each other
 * (c2d_static_set_step_balls), as event-driven dynamics: each ball follows the path the one-ball
 * stepper gives it through the level (its seams, responses and moving members as always), a
 * piecewise-linear path known to the end of the step; the earliest time two paths bring their balls
 * into contact is the next event. There the two balls (or, for a resting contact, the cluster of balls
 * touching them) exchange impulses, and the balls whose velocity changed get a new level path from that
 * time on. A ball without ball contacts ends exactly where c2d_static_set_step_ball puts it.
 *
 * Resting contacts (a pile under gravity, with a rest speed) are solved together before the step, so
 * that a pile at rest meets no event at all: each resting pair is brought to a small rest gap, and a
 * cluster's impulses are solved exactly (an active-set method over a Cholesky factor in profile form),
 * since the events would find any pair that rounding of an iterative solve left approaching. The
 * level's friction acts on the balls it holds up there, as in the one-ball stepper's bounces.
 *
 * The broadphase: every path's swept box; pairs are first found by sort-and-sweep over those boxes,
 * and after an event the few balls whose paths changed are tested against every box (one comparison
 * each). Layer 4, sets: calls resolve.c (the one-ball step with its records). */
#include "records.h"
#include "sweep.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The larger of |x| and |y| (v finite), as the engine measures coordinates. */
static double vec_magnitude(c2d_vec2 v)
{
    return c2d_max_num(fabs(v.x), fabs(v.y));
}

static double min_num(double a, double b)
{
    return a < b ? a : b;
}

/* Ball contacts a step may have before it is cut short, beyond MAX_EVENTS_PER_BALL per ball. */
#define MAX_EVENTS_BASE 256
#define MAX_EVENTS_PER_BALL 16
/* The most balls one resting contact's impulses are shared among. */
#define MAX_CLUSTER 64
/* Rounds of finding the level contacts a cluster's impulses push into. */
#define LEVEL_ROUNDS 4
/* Rounds of sequential impulses that share out the friction of the level's sliding contacts, and the
 * most times the grips change between sliding and holding before the step. */
#define FRICTION_SWEEPS 64
#define FRICTION_PASSES 4
/* Balls of a resting cluster touch when their gap is within this many touching tolerances: resting
 * balls stand where impulses left them, a few roundings apart. */
#define TOUCH_FACTOR 1e3
/* Contacts within this fraction of the step of each other are at one instant (see the event loop). */
#define INSTANT 1e-9
/* Resting contacts end separating at this fraction of the step's largest speed, and the impulses stop
 * once no contact is off by more than SOLVE_TOL of it: resting balls part by far less than the touching
 * tolerance over a step, where an exact zero, missed by rounding, would meet again at once. */
#define REST_BIAS 1e-9
#define SOLVE_TOL 1e-10
/* See rest_threshold. */
#define REST_FRACTION 1e-6

c2d_balls_options c2d_balls_options_default(void)
{
    c2d_balls_options o;
    o.restitution = 1.0;
    o.rest_speed = 0.0;
    o.max_events = 0;
    return o;
}

/* One knot of a path: from time t (of the step) the ball goes in a straight line from p to the next
 * knot's p; v is its velocity (what the response left it), which its impulses start from. */
typedef struct knot {
    double t;
    c2d_vec2 p, v;
} knot;

/* A level contact of a path, its time in the step. */
typedef struct level_rec {
    double t;
    c2d_contact_record r;
} level_rec;

/* An output record and the order it was made in, to sort by time and then that. */
typedef struct out_rec {
    c2d_contact_record r;
    double t;
    long seq;
} out_rec;

typedef struct ball_path {
    int knot, nknot;   /* into the knot pool: nknot >= 2, the last at the step's end */
    int rec, nrec;     /* into the level-record pool */
    c2d_aabb box;      /* the path's swept box, grown by the radius and the tolerance */
    double travelled;  /* the whole path's length, as the one-ball step measured it */
} ball_path;

typedef struct best_event {
    double t;          /* INFINITY: none */
    int partner;
} best_event;

typedef struct balls_run {
    const c2d_static_set *set;
    c2d_ball *balls;
    int n;
    double dt;
    const c2d_move_options *options;
    double restitution, rest_speed;
    double speed_scale; /* the largest speed at the step's start (and at least the rest speed) */
    double *inv_mass;
    ball_path *path;
    best_event *best;
    knot *knots;
    int nknots, cap_knots;
    level_rec *recs;
    int nrecs, cap_recs;
    out_rec *out;
    long nout, cap_out;
    int report; /* records are kept */
    c2d_record_list list;
    c2d_contact_record list_stack[16];
    double travelled;
    int truncated;
    int no_memory;
    unsigned char *mark;
    int *cluster;
    double *last_t; /* each ball's last ball contact (-INFINITY: none yet) */
    int *order;     /* the balls by their boxes' left sides (kept sorted as paths change) */
    double width;   /* the widest box so far: a box meeting ball i's starts within this of it */
    int *repeats;   /* how many contacts in a row it has had at one instant */
    c2d_ball *own;  /* the balls as they start once pushed apart (see separate), or NULL */
    int overlap;    /* two balls start overlapping deeper than touching (found by initial_events) */
} balls_run;

static int grow(void **p, int *cap, int need, size_t size)
{
    if (need <= *cap)
        return 1;
    int c = *cap < 64 ? 64 : *cap;
    while (c < need) {
        if (c > (1 << 28))
            return 0;
        c *= 2;
    }
    void *q = realloc(*p, (size_t)c * size);
    if (!q)
        return 0;
    *p = q;
    *cap = c;
    return 1;
}

/* ---- paths ---- */

/* The knot of path b whose straight piece holds time t: the last whose time is at most t (the first
 * when t is before it). */
static int knot_at(const balls_run *r, int b, double t)
{
    const ball_path *bp = &r->path[b];
    const knot *k = r->knots + bp->knot;
    int i = 0;
    while (i + 1 < bp->nknot - 1 && k[i + 1].t <= t)
        i++;
    return i;
}

static c2d_vec2 pos_at(const balls_run *r, int b, double t)
{
    const ball_path *bp = &r->path[b];
    const knot *k = r->knots + bp->knot;
    int i = knot_at(r, b, t);
    if (!(k[i + 1].t > k[i].t))
        return k[i + 1].p;
    if (t <= k[i].t)
        return k[i].p;
    if (t >= k[i + 1].t)
        return k[i + 1].p;
    return v2_lerp(k[i].p, k[i + 1].p, (t - k[i].t) / (k[i + 1].t - k[i].t));
}

static c2d_vec2 vel_at(const balls_run *r, int b, double t)
{
    const ball_path *bp = &r->path[b];
    if (t >= r->dt)
        return r->knots[bp->knot + bp->nknot - 1].v;
    return r->knots[bp->knot + knot_at(r, b, t)].v;
}

/* Runs ball b's level path from time t0 at position p with velocity v to the step's end, replacing its
 * path. Returns the engine's status. */
static c2d_status plan(balls_run *r, int b, double t0, c2d_vec2 p, c2d_vec2 v)
{
    c2d_ball ball;
    ball.position = p;
    ball.velocity = v;
    ball.radius = r->balls[b].radius;
    double T = r->dt - t0;
    if (T < 0)
        T = 0;
    c2d_record_list_clear(&r->list);
    c2d_move_result res;
    c2d_status st = t0 > 0 ? c2d_static_set_step_ball_list_at(r->set, &ball, t0, T, r->options, &res, &r->list)
                           : c2d_static_set_step_ball_list(r->set, &ball, T, r->options, &res, &r->list);
    if (st != C2D_OK)
        return st;
    if (res.truncated)
        r->truncated = 1;
    int nk = r->list.count + 2;
    if (!grow((void **)&r->knots, &r->cap_knots, r->nknots + nk, sizeof(knot)) ||
        (r->report && !grow((void **)&r->recs, &r->cap_recs, r->nrecs + r->list.count, sizeof(level_rec))))
        return C2D_ERR_NO_MEMORY;
    ball_path *bp = &r->path[b];
    bp->knot = r->nknots;
    bp->rec = r->nrecs;
    bp->nrec = 0;
    knot *k = r->knots + r->nknots;
    int m = 0;
    k[m].t = t0;
    k[m].p = p;
    k[m].v = v;
    m++;
    for (int q = 0; q < r->list.count; q++) {
        const c2d_contact_record *cr = &r->list.items[q];
        double t = t0 + cr->contact.t * T;
        if (t > r->dt)
            t = r->dt;
        k[m].t = t;
        k[m].p = cr->position;
        k[m].v = cr->velocity;
        m++;
        if (r->report) {
            level_rec *lr = &r->recs[r->nrecs + bp->nrec++];
            lr->t = t;
            lr->r = *cr;
            lr->r.contact.t = r->dt > 0 ? t / r->dt : 0;
            lr->r.id = (c2d_world_id)b + 1;
        }
    }
    k[m].t = r->dt;
    k[m].p = ball.position;
    k[m].v = ball.velocity;
    m++;
    bp->nknot = m;
    bp->travelled = res.travelled;
    r->nknots += m;
    r->nrecs += bp->nrec;
    double grow_by = ball.radius + c2d_sweep_tolerance(vec_magnitude(ball.position) + ball.radius) * 4;
    c2d_aabb box;
    box.min = box.max = k[0].p;
    for (int q = 1; q < m; q++) {
        box.min = v2(min_num(box.min.x, k[q].p.x), min_num(box.min.y, k[q].p.y));
        box.max = v2(c2d_max_num(box.max.x, k[q].p.x), c2d_max_num(box.max.y, k[q].p.y));
    }
    box.min = v2(box.min.x - grow_by, box.min.y - grow_by);
    box.max = v2(box.max.x + grow_by, box.max.y + grow_by);
    bp->box = box;
    return C2D_OK;
}

static out_rec *push_out(balls_run *r)
{
    if (r->nout == r->cap_out) {
        long c = r->cap_out < 64 ? 64 : 2 * r->cap_out;
        out_rec *q = (out_rec *)realloc(r->out, (size_t)c * sizeof *q);
        if (!q) {
            r->no_memory = 1;
            return NULL;
        }
        r->out = q;
        r->cap_out = c;
    }
    out_rec *o = &r->out[r->nout];
    o->seq = r->nout;
    r->nout++;
    return o;
}

/* Ends ball b's path at time t: its level records up to then are kept, and its length so far counted. */
static void commit(balls_run *r, int b, double t)
{
    const ball_path *bp = &r->path[b];
    const knot *k = r->knots + bp->knot;
    if (t >= r->dt) {
        r->travelled += bp->travelled;
    } else {
        for (int i = 0; i + 1 < bp->nknot && k[i].t < t; i++) {
            c2d_vec2 e = k[i + 1].t <= t ? k[i + 1].p : pos_at(r, b, t);
            r->travelled += v2_len(v2_sub(e, k[i].p));
        }
    }
    if (!r->report)
        return;
    for (int i = 0; i < bp->nrec; i++) {
        const level_rec *lr = &r->recs[bp->rec + i];
        if (lr->t > t)
            break;
        out_rec *o = push_out(r);
        if (!o)
            return;
        o->r = lr->r;
        o->t = lr->t;
    }
}

static int compare_min_x(const void *x, const void *y, const balls_run *r);

/* ---- the time of impact of two paths ---- */

/* The touching tolerance of two balls about positions a and b. */
static double pair_tol(c2d_vec2 a, c2d_vec2 b, double R)
{
    return c2d_sweep_tolerance(c2d_max_num(vec_magnitude(a), vec_magnitude(b)) + R);
}

/* The first time in [t, dt] at which balls i and j come into contact while approaching, or INFINITY.
 * Over each interval in which both paths are straight, the centres' offset d0 + w u (u in [0, 1]) meets
 * the circle of radius R = ri + rj where |d0 + w u|^2 = R^2: the smaller root of a u^2 + 2 b u + c, taken
 * as c / (-b + sqrt(b^2 - a c)), which has no cancellation when the balls approach (b < 0). Balls
 * within the touching tolerance of contact count as in contact when they approach. overlap (may be
 * NULL) is set to 1 when they start (at t) overlapping deeper than that. */
static double pair_toi(const balls_run *r, int i, int j, double t, int *overlap)
{
    if (r->inv_mass[i] == 0 && r->inv_mass[j] == 0)
        return INFINITY;
    const ball_path *pi = &r->path[i], *pj = &r->path[j];
    const knot *ki = r->knots + pi->knot, *kj = r->knots + pj->knot;
    int a = knot_at(r, i, t), b = knot_at(r, j, t);
    double R = r->balls[i].radius + r->balls[j].radius, s = t;
    c2d_vec2 p0i = pos_at(r, i, s), p0j = pos_at(r, j, s);
    if (overlap && R - v2_len(v2_sub(p0j, p0i)) > pair_tol(p0i, p0j, R))
        *overlap = 1;
    while (s < r->dt) {
        double next = r->dt;
        while (a + 1 < pi->nknot - 1 && ki[a + 1].t <= s)
            a++;
        while (b + 1 < pj->nknot - 1 && kj[b + 1].t <= s)
            b++;
        if (a + 1 < pi->nknot - 1 && ki[a + 1].t < next)
            next = ki[a + 1].t;
        if (b + 1 < pj->nknot - 1 && kj[b + 1].t < next)
            next = kj[b + 1].t;
        c2d_vec2 p1i = pos_at(r, i, next), p1j = pos_at(r, j, next);
        c2d_vec2 d0 = v2_sub(p0j, p0i), w = v2_sub(v2_sub(p1j, p1i), d0);
        double bq = v2_dot(d0, w), l0 = v2_len(d0), lw = v2_len(w);
        double tol = pair_tol(p0i, p0j, R);
        if (l0 - R <= tol) {
            /* In contact: approaching as their velocities say, which the impulse will answer (over an
             * interval a rounding long, the positions' difference is only noise). */
            c2d_vec2 u = v2_sub(kj[b].v, ki[a].v);
            double closing = -v2_dot(d0, u);
            /* ... and by more than the gap between them (a resting pair apart by less than the
             * tolerance closes part of it) and rounding would carry them over the rest of the step. */
            double gap = l0 - R;
            if (closing > C2D_SWEEP_DIR_TOL * l0 * v2_len(u) &&
                closing * (r->dt - s) > (c2d_max_num(gap, 0) + 1e-3 * tol) * l0)
                return s;
        } else if (bq < -C2D_SWEEP_DIR_TOL * l0 * lw) {
            double aq = v2_dot(w, w), cq = (l0 - R) * (l0 + R);
            double disc = bq * bq - aq * cq;
            if (disc >= 0) {
                double u = cq / (-bq + sqrt(disc));
                if (u <= 1) {
                    double te = s + u * (next - s);
                    return te < next ? te : next;
                }
            }
        }
        s = next;
        p0i = p1i;
        p0j = p1j;
    }
    return INFINITY;
}

static int boxes_meet(const c2d_aabb *a, const c2d_aabb *b)
{
    return a->min.x <= b->max.x && b->min.x <= a->max.x && a->min.y <= b->max.y && b->min.y <= a->max.y;
}

/* Ball i's earliest event from time t against every ball whose box meets its own: those whose left
 * sides lie within the widest box's width to the left of i's box and up to its right side. */
static void find_best(balls_run *r, int i, double t)
{
    best_event be;
    be.t = INFINITY;
    be.partner = -1;
    const c2d_aabb *bi = &r->path[i].box;
    double from = bi->min.x - r->width;
    int lo = 0, hi = r->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (r->path[r->order[mid]].box.min.x < from)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int q = lo; q < r->n; q++) {
        int k = r->order[q];
        const c2d_aabb *bk = &r->path[k].box;
        if (bk->min.x > bi->max.x)
            break;
        if (k == i || !boxes_meet(bi, bk))
            continue;
        double tk = pair_toi(r, i, k, t, NULL);
        if (tk < be.t || (tk == be.t && k < be.partner)) {
            be.t = tk;
            be.partner = k;
        }
    }
    r->best[i] = be;
}

/* Sorts order again after some boxes changed: an insertion sort, as good as linear for an order a few
 * balls left (several at once: each may have to pass another still out of place). */
static void reorder(balls_run *r)
{
    int *o = r->order;
    for (int q = 1; q < r->n; q++) {
        int b = o[q], z = q;
        while (z > 0 && compare_min_x(&o[z - 1], &b, r) > 0) {
            o[z] = o[z - 1];
            z--;
        }
        o[z] = b;
    }
}

/* Offers the event of i and k at time tk to both. */
static void offer(balls_run *r, int i, int k, double tk)
{
    if (tk < r->best[i].t || (tk == r->best[i].t && k < r->best[i].partner)) {
        r->best[i].t = tk;
        r->best[i].partner = k;
    }
    if (tk < r->best[k].t || (tk == r->best[k].t && i < r->best[k].partner)) {
        r->best[k].t = tk;
        r->best[k].partner = i;
    }
}

static int compare_min_x(const void *x, const void *y, const balls_run *r)
{
    double a = r->path[*(const int *)x].box.min.x, b = r->path[*(const int *)y].box.min.x;
    if (a != b)
        return a < b ? -1 : 1;
    return (*(const int *)x > *(const int *)y) - (*(const int *)x < *(const int *)y);
}

/* Sorts the ball indices by their boxes' left sides (a merge sort: qsort takes no
 * context argument in C99). */
static void sort_by_x(balls_run *r, int *idx, int *tmp, int n)
{
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                tmp[o++] = compare_min_x(&idx[b], &idx[a], r) < 0 ? idx[b++] : idx[a++];
            while (a < mid)
                tmp[o++] = idx[a++];
            while (b < hi)
                tmp[o++] = idx[b++];
        }
        memcpy(idx, tmp, (size_t)n * sizeof *idx);
    }
}

/* Sorts r->order by the boxes' left sides from scratch. Returns 0 when memory ran out. */
static int sort_order(balls_run *r)
{
    int *tmp = (int *)malloc((size_t)r->n * sizeof(int));
    if (!tmp)
        return 0;
    for (int i = 0; i < r->n; i++)
        r->order[i] = i;
    sort_by_x(r, r->order, tmp, r->n);
    free(tmp);
    return 1;
}

/* Every pair whose boxes meet, by a sweep on x over r->order (sorted), offered its first event; r->overlap
 * set when two balls start overlapping. */
static void initial_events(balls_run *r)
{
    int *idx = r->order;
    r->width = 0;
    for (int i = 0; i < r->n; i++) {
        r->best[i].t = INFINITY;
        r->best[i].partner = -1;
        r->width = c2d_max_num(r->width, r->path[i].box.max.x - r->path[i].box.min.x);
    }
    for (int a = 0; a < r->n; a++) {
        int i = idx[a];
        const c2d_aabb *bi = &r->path[i].box;
        for (int b = a + 1; b < r->n; b++) {
            int k = idx[b];
            const c2d_aabb *bk = &r->path[k].box;
            if (bk->min.x > bi->max.x)
                break;
            if (bk->min.y > bi->max.y || bi->min.y > bk->max.y)
                continue;
            double tk = pair_toi(r, i < k ? i : k, i < k ? k : i, 0.0, &r->overlap);
            if (tk < INFINITY)
                offer(r, i, k, tk);
        }
    }
}

/* ---- impulses ---- */

/* The two records of a contact between balls a and b at time t (n from a to b), the lower index's
 * first: each names the other ball as -1 - its index. */
static void record_pair(balls_run *r, int a, int b, double t, c2d_vec2 pa, c2d_vec2 pb, c2d_vec2 n, c2d_vec2 va,
                        c2d_vec2 vb)
{
    if (!r->report)
        return;
    if (a > b) { /* the lower index first, and n from it */
        int z = a;
        a = b;
        b = z;
        c2d_vec2 q = pa;
        pa = pb;
        pb = q;
        q = va;
        va = vb;
        vb = q;
        n = v2_neg(n);
    }
    for (int side = 0; side < 2; side++) {
        out_rec *o = push_out(r);
        if (!o)
            return;
        int me = side ? b : a, other = side ? a : b;
        c2d_vec2 p = side ? pb : pa, nn = side ? n : v2_neg(n); /* the other's normal, towards me */
        memset(&o->r, 0, sizeof o->r);
        o->r.contact.index = -1 - other;
        o->r.contact.t = r->dt > 0 ? t / r->dt : 0;
        o->r.contact.normal = nn;
        o->r.contact.point = v2_mad(p, -r->balls[me].radius, nn);
        o->r.contact.response = C2D_RESPONSE_BOUNCE;
        o->r.position = p;
        o->r.velocity = side ? vb : va;
        o->r.id = (c2d_world_id)me + 1;
        o->t = t;
    }
}

/* What a contact asks of its speed: at least its target, by an impulse that only pushes; exactly its
 * target, by an impulse either way (the grip of a level's friction); nothing (a grip let go). */
enum { CONTACT_PUSH, CONTACT_GRIP, CONTACT_OFF };

/* A contact of a resting cluster: between balls a and b (normal n from a to b), or of ball a with the
 * level (b < 0, n the level's normal towards the ball, or for a grip the surface's direction). */
typedef struct bcontact {
    int a, b;
    c2d_vec2 n;
    double target; /* the normal speed it must end with at least */
    double impulse;
    int kind;      /* CONTACT_PUSH, or before the step the next two */
    double mu;     /* before the step, a level contact's friction coefficient (0: none; its grip follows) */
    double held;   /* ... and a grip let go, its fixed impulse along the surface */
} bcontact;

/* Rounds of sequential impulses before the exact solve is tried, and in all. */
#define SWEEP_ROUNDS 16
#define MAX_ROUNDS 2000
/* Changes to the exact solve's guess of the contacts that push, and the multiplications its
 * factorisations may take for each contact and round of sweeps they spare, before it leaves the cluster
 * to the sequential impulses. */
#define ACTIVE_ROUNDS 32
#define EXACT_WORK 10
/* The exact solve factorises its equations with each diagonal grown by this fraction, which keeps the
 * factor whole where contacts depend on each other (a ball between two walls exactly as far apart as
 * it is wide: any split of the push between them will do), and refines the answer REFINE_PASSES times
 * at most, until the targets are met within REFINED of the solve's tolerance. */
#define REGULARISE 1e-10
#define REFINE_PASSES 6
#define REFINED 0.01

/* The normal speed of contact k under the velocities v. */
static double contact_speed(const bcontact *k, const c2d_vec2 *v, const int *slot)
{
    return k->b >= 0 ? v2_dot(v2_sub(v[slot[k->b]], v[slot[k->a]]), k->n) : v2_dot(v[slot[k->a]], k->n);
}

/* Gives the velocities v contact k's impulse j. */
static void apply_impulse(const balls_run *r, const bcontact *k, double j, c2d_vec2 *v, const int *slot)
{
    if (k->b >= 0) {
        v[slot[k->a]] = v2_mad(v[slot[k->a]], -j * r->inv_mass[k->a], k->n);
        v[slot[k->b]] = v2_mad(v[slot[k->b]], j * r->inv_mass[k->b], k->n);
    } else {
        v[slot[k->a]] = v2_mad(v[slot[k->a]], j * r->inv_mass[k->a], k->n);
    }
}

/* Rounds of sequential impulses (projected Gauss-Seidel) over the contacts, from the impulses they
 * hold, until no contact's impulse changes by more than the solve's tolerance (returns 1) or the rounds
 * run out (returns 0). */
static int sweep_contacts(const balls_run *r, bcontact *c, int nc, c2d_vec2 *v, const int *slot, int rounds)
{
    for (int it = 0; it < rounds; it++) {
        double worst = 0;
        for (int q = 0; q < nc; q++) {
            bcontact *k = &c[q];
            double wa = r->inv_mass[k->a], wb = k->b >= 0 ? r->inv_mass[k->b] : 0;
            if (wa + wb == 0 || k->kind == CONTACT_OFF)
                continue;
            double dj = (k->target - contact_speed(k, v, slot)) / (wa + wb), acc = k->impulse + dj;
            if (acc < 0 && k->kind == CONTACT_PUSH)
                acc = 0;
            if (k->kind == CONTACT_GRIP) { /* within friction times the impulse of its contact, before it */
                double most = k[-1].mu * k[-1].impulse;
                acc = acc > most ? most : acc < -most ? -most : acc;
            }
            dj = acc - k->impulse;
            k->impulse = acc;
            if (dj == 0)
                continue;
            worst = c2d_max_num(worst, fabs(dj) * (wa + wb));
            apply_impulse(r, k, dj, v, slot);
        }
        if (worst <= SOLVE_TOL * r->speed_scale)
            return 1;
    }
    return 0;
}

typedef struct contact_key {
    double key;
    int q;
} contact_key;

static int compare_key(const void *x, const void *y)
{
    const contact_key *a = (const contact_key *)x, *b = (const contact_key *)y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->q > b->q) - (a->q < b->q);
}

/* How contact k's normal speed changes with ball x's velocity: -1 for its first ball of two, +1 for
 * its second ball or the ball of a level contact, 0 for another. */
static double contact_sign(const bcontact *k, int x)
{
    if (k->a == x)
        return k->b >= 0 ? -1.0 : 1.0;
    return k->b == x ? 1.0 : 0.0;
}

/* The exact impulses of the cluster's contacts, by an active-set method (Lawson and Hanson's, for
 * impulses that only push): the contacts that push (at first those the sweeps left an impulse, and
 * grips) end exactly at their target speed, a linear system J W J^T x = target - J v0 factorised by
 * Cholesky in profile form (the contacts sorted along the cluster's longer side, so that each is
 * coupled only to near ones: a wide pile costs in proportion to its width). The impulses step from the
 * last ones towards its solution as far as none turns negative, and the contact that would is dropped;
 * at the solution, the contact left approaching fastest beyond its target is added; and again. The
 * sweeps alone converge ever slower as a pile grows (a 40-ball pile between walls takes thousands of
 * rounds, and any residual approach is an event); this takes a few factorisations. Returns 1 with v
 * (from v0) and the impulses set when every contact meets its target within the solve's tolerance and
 * no impulse pulls; 0, leaving both as they were, when it cannot (rounds, work or memory run out). */
static int solve_exact(const balls_run *r, bcontact *c, int nc, const c2d_vec2 *v0, c2d_vec2 *v, const int *slot,
                       int nv)
{
    size_t unc = (size_t)nc, unv = (size_t)nv;
    contact_key *key = (contact_key *)malloc(unc * sizeof *key);
    int *act = (int *)malloc(unc * sizeof(int)), *pos = (int *)malloc(unc * sizeof(int));
    int *first = (int *)malloc(unc * sizeof(int)), *start = (int *)malloc((unv + 1) * sizeof(int));
    int *inc = (int *)malloc(2 * unc * sizeof(int));
    long *off = (long *)malloc((unc + 1) * sizeof(long));
    double *lam = (double *)malloc(unc * sizeof(double)), *y = (double *)malloc(unc * sizeof(double));
    double *fwd = (double *)malloc(unc * sizeof(double));
    unsigned char *in = (unsigned char *)malloc(unc);
    c2d_vec2 *vt = (c2d_vec2 *)malloc(unv * sizeof *vt);
    double *L = NULL;
    long cap_l = 0;
    int ok = 0;
    if (!key || !act || !pos || !first || !start || !inc || !off || !lam || !y || !fwd || !in || !vt)
        goto done;
    double eps = SOLVE_TOL * r->speed_scale;
    /* Its factorisations may cost what the sweeps it spares would, at most. */
    double work = 0, budget = EXACT_WORK * (double)MAX_ROUNDS * (double)nc;
    /* The order: along the longer side of the box of the contacts' places. */
    c2d_aabb box;
    box.min = v2(INFINITY, INFINITY);
    box.max = v2(-INFINITY, -INFINITY);
    for (int q = 0; q < nc; q++) {
        c2d_vec2 p = r->balls[c[q].a].position;
        if (c[q].b >= 0)
            p = v2_lerp(p, r->balls[c[q].b].position, 0.5);
        box.min = v2(min_num(box.min.x, p.x), min_num(box.min.y, p.y));
        box.max = v2(c2d_max_num(box.max.x, p.x), c2d_max_num(box.max.y, p.y));
        key[q].key = p.x;
        key[q].q = q;
        y[q] = p.y; /* (scratch until the solve) */
        lam[q] = c[q].impulse;
        in[q] = c[q].kind == CONTACT_GRIP || (c[q].kind == CONTACT_PUSH && c[q].impulse > 0);
    }
    if (box.max.y - box.min.y > box.max.x - box.min.x)
        for (int q = 0; q < nc; q++)
            key[q].key = y[q];
    qsort(key, unc, sizeof *key, compare_key);
    for (int round = 0; round < ACTIVE_ROUNDS; round++) {
        /* The pushing contacts in order, and for each ball the pushing contacts that touch it. */
        int m = 0;
        for (int z = 0; z < nc; z++) {
            int q = key[z].q;
            pos[q] = -1;
            if (in[q])
                act[m] = q, pos[q] = m++;
        }
        memset(start, 0, (unv + 1) * sizeof(int));
        for (int i = 0; i < m; i++) {
            const bcontact *k = &c[act[i]];
            start[slot[k->a] + 1]++;
            if (k->b >= 0)
                start[slot[k->b] + 1]++;
        }
        for (int s = 0; s < nv; s++)
            start[s + 1] += start[s];
        for (int i = 0; i < m; i++) {
            const bcontact *k = &c[act[i]];
            inc[start[slot[k->a]]++] = i;
            if (k->b >= 0)
                inc[start[slot[k->b]]++] = i;
        }
        for (int s = nv; s > 0; s--)
            start[s] = start[s - 1];
        start[0] = 0;
        /* The profile: row i of the factor from the first contact coupled to it. */
        off[0] = 0;
        for (int i = 0; i < m; i++) {
            const bcontact *k = &c[act[i]];
            int f = i;
            for (int side = 0; side < 2; side++) {
                int ball = side ? k->b : k->a;
                if (ball < 0)
                    continue;
                for (int e = start[slot[ball]]; e < start[slot[ball] + 1]; e++)
                    if (inc[e] < f)
                        f = inc[e];
            }
            first[i] = f;
            off[i + 1] = off[i] + (i - f + 1);
        }
        /* (the factorisation, the refinements and the checks) */
        work += (double)REFINE_PASSES * (double)off[m] + 4.0 * (double)nc;
        for (int i = 0; i < m; i++)
            work += 0.5 * (double)(i - first[i]) * (double)(i - first[i]);
        if (work > budget)
            break;
        if (off[m] > cap_l) {
            free(L);
            cap_l = off[m];
            L = (double *)malloc((size_t)cap_l * sizeof(double));
            if (!L)
                goto done;
        }
        /* J W J^T, then its factor in place. */
        memset(L, 0, (size_t)off[m] * sizeof(double));
        for (int i = 0; i < m; i++) {
            const bcontact *k = &c[act[i]];
            for (int side = 0; side < 2; side++) {
                int ball = side ? k->b : k->a;
                if (ball < 0)
                    continue;
                double w = r->inv_mass[ball] * contact_sign(k, ball);
                for (int e = start[slot[ball]]; e < start[slot[ball] + 1]; e++) {
                    int j = inc[e];
                    if (j <= i)
                        L[off[i] + j - first[i]] += w * contact_sign(&c[act[j]], ball) * v2_dot(k->n, c[act[j]].n);
                }
            }
        }
        int singular = 0;
        for (int i = 0; i < m && !singular; i++) {
            double *li = L + off[i] - first[i];
            for (int j = first[i]; j < i; j++) {
                const double *lj = L + off[j] - first[j];
                double s = li[j];
                for (int z = first[i] > first[j] ? first[i] : first[j]; z < j; z++)
                    s -= li[z] * lj[z];
                li[j] = s / lj[j];
            }
            double d = li[i] * (1 + REGULARISE);
            for (int z = first[i]; z < i; z++)
                d -= li[z] * li[z];
            singular = !(d > 0);
            li[i] = sqrt(d);
        }
        if (singular)
            break;
        /* Refined from the impulses so far (the regularised factor's answer nearest them, where the
         * contacts' equations leave their impulses free), until the targets are met. */
        for (int i = 0; i < m; i++)
            y[i] = lam[act[i]];
        for (int pass = 0; pass < REFINE_PASSES; pass++) {
            memcpy(vt, v0, unv * sizeof *vt);
            for (int i = 0; i < m; i++)
                apply_impulse(r, &c[act[i]], y[i], vt, slot);
            double off_by = 0;
            for (int i = 0; i < m; i++) {
                const double *li = L + off[i] - first[i];
                double s = c[act[i]].target - contact_speed(&c[act[i]], vt, slot);
                off_by = c2d_max_num(off_by, fabs(s));
                for (int z = first[i]; z < i; z++)
                    s -= li[z] * fwd[z];
                fwd[i] = s / li[i];
            }
            if (off_by <= REFINED * eps)
                break;
            for (int i = m - 1; i >= 0; i--) {
                const double *li = L + off[i] - first[i];
                double zi = fwd[i] / li[i];
                y[i] += zi;
                for (int z = first[i]; z < i; z++)
                    fwd[z] -= li[z] * zi;
            }
        }
        /* From the impulses lam (none negative) towards the solution y, as far as none turns negative:
         * a contact that would is left out, and the solve goes again. */
        double step = 1;
        int block = -1;
        for (int i = 0; i < m; i++) {
            double li = lam[act[i]];
            if (c[act[i]].kind == CONTACT_PUSH && y[i] < 0 && li - y[i] > 0 && li / (li - y[i]) < step) {
                step = li / (li - y[i]);
                block = i;
            }
        }
        for (int i = 0; i < m; i++) {
            int q = act[i];
            lam[q] = block < 0 ? y[i] : lam[q] + step * (y[i] - lam[q]);
            if (i == block || (c[q].kind == CONTACT_PUSH && !(lam[q] > 0))) {
                lam[q] = 0;
                in[q] = 0;
            }
        }
        if (block >= 0)
            continue;
        /* At the solution: add the contact left approaching fastest beyond its target, or done. */
        memcpy(vt, v0, unv * sizeof *vt);
        for (int q = 0; q < nc; q++)
            if (in[q])
                apply_impulse(r, &c[q], lam[q], vt, slot);
        int add = -1, good = 1;
        double worst = eps;
        for (int q = 0; q < nc; q++) {
            const bcontact *k = &c[q];
            if (r->inv_mass[k->a] + (k->b >= 0 ? r->inv_mass[k->b] : 0) == 0 || k->kind == CONTACT_OFF)
                continue;
            double err = k->target - contact_speed(k, vt, slot);
            if (!in[q] && err > worst) {
                worst = err;
                add = q;
            } else if (in[q] && fabs(err) > eps) {
                good = 0;
            }
        }
        if (add >= 0) {
            in[add] = 1;
            continue;
        }
        if (good) {
            memcpy(v, vt, unv * sizeof *vt);
            for (int q = 0; q < nc; q++)
                c[q].impulse = in[q] ? lam[q] : 0;
            ok = 1;
        }
        break;
    }
done:
    free(key);
    free(act);
    free(pos);
    free(first);
    free(start);
    free(inc);
    free(off);
    free(lam);
    free(y);
    free(fwd);
    free(in);
    free(vt);
    free(L);
    return ok;
}

/* The impulses of a resting pile, shared among all its contacts at once, until no contact approaches
 * faster than its target: v holds the nv velocities of the cluster's balls (by slot) and gets theirs
 * after the impulses. Sequential impulses first, which settle a small cluster in a few rounds; then, if
 * they have not, the exact solve; and if that fails, sequential impulses until their rounds run out. */
static void solve_cluster(const balls_run *r, bcontact *c, int nc, c2d_vec2 *v, const int *slot, int nv)
{
    for (int q = 0; q < nc; q++)
        c[q].impulse = 0;
    c2d_vec2 *v0 = (c2d_vec2 *)malloc((size_t)(nv > 0 ? nv : 1) * sizeof *v0);
    if (v0)
        memcpy(v0, v, (size_t)nv * sizeof *v0);
    int done = sweep_contacts(r, c, nc, v, slot, SWEEP_ROUNDS);
    if (!done && v0)
        done = solve_exact(r, c, nc, v0, v, slot, nv);
    if (!done)
        sweep_contacts(r, c, nc, v, slot, MAX_ROUNDS - SWEEP_ROUNDS);
    free(v0);
}

/* The approach speed at or below which balls a and b are a resting contact: the caller's rest_speed, or
 * one that would close a millionth of their radii over the whole step, whichever is larger. Bounces
 * slower than that are what an inelastic collapse is made of (a ball pinned between the floor and
 * another, its bounces ever smaller and sooner): at rest, the cluster ends them in one solve. */
static double rest_threshold(const balls_run *r, int a, int b)
{
    double auto_speed = r->dt > 0 ? REST_FRACTION * (r->balls[a].radius + r->balls[b].radius) / r->dt : 0;
    return c2d_max_num(r->rest_speed, auto_speed);
}

/* The cluster of a resting contact between balls a and b at time t: they, the balls touching them, those
 * touching those, and so on (a fixed ball passes nothing on), up to MAX_CLUSTER, into r->cluster.
 * Returns how many. */
static int gather(balls_run *r, int a, int b, double t)
{
    int m = 0, *cl = r->cluster;
    cl[m++] = a;
    cl[m++] = b;
    r->mark[a] = r->mark[b] = 1;
    for (int q = 0; q < m && m < MAX_CLUSTER; q++) {
        int x = cl[q];
        if (r->inv_mass[x] == 0)
            continue;
        c2d_vec2 px = pos_at(r, x, t);
        for (int k = 0; k < r->n && m < MAX_CLUSTER; k++) {
            if (r->mark[k] || !boxes_meet(&r->path[x].box, &r->path[k].box))
                continue;
            c2d_vec2 pk = pos_at(r, k, t);
            double R = r->balls[x].radius + r->balls[k].radius;
            if (v2_len(v2_sub(pk, px)) - R <= TOUCH_FACTOR * pair_tol(px, pk, R)) {
                r->mark[k] = 1;
                cl[m++] = k;
            }
        }
    }
    for (int q = 0; q < m; q++)
        r->mark[cl[q]] = 0;
    return m;
}

/* The resting contact at time t of the cluster's first two balls: the balls touching them (and those
 * touching those, up to MAX_CLUSTER), the cluster's m balls (see gather), share the impulses, each
 * contact slower than rest_speed ending at rest, and the level contacts the impulses push balls into
 * (found by their new paths, which start with a contact) hold as walls. Returns a status; the
 * cluster's balls get new paths. */
static c2d_status rest_cluster(balls_run *r, int m, double t, int inelastic)
{
    const int *cl = r->cluster;
    c2d_vec2 p[MAX_CLUSTER], v0[MAX_CLUSTER], v[MAX_CLUSTER];
    /* Slots: the cluster's balls by position in cl (a small map through a scratch array). */
    int *slot = (int *)malloc((size_t)r->n * sizeof(int));
    bcontact *c = (bcontact *)malloc((size_t)(m * (m - 1) / 2 + LEVEL_ROUNDS * m + 1) * sizeof(bcontact));
    if (!slot || !c) {
        free(slot);
        free(c);
        return C2D_ERR_NO_MEMORY;
    }
    for (int q = 0; q < m; q++) {
        slot[cl[q]] = q;
        p[q] = pos_at(r, cl[q], t);
        v0[q] = vel_at(r, cl[q], t);
    }
    int nc = 0;
    for (int a = 0; a < m; a++)
        for (int b = a + 1; b < m; b++) {
            int ia = cl[a], ib = cl[b];
            double R = r->balls[ia].radius + r->balls[ib].radius;
            c2d_vec2 d = v2_sub(p[b], p[a]);
            double l = v2_len(d);
            if (!(l > 0) || l - R > TOUCH_FACTOR * pair_tol(p[a], p[b], R))
                continue;
            bcontact *k = &c[nc++];
            k->a = ia;
            k->b = ib;
            k->kind = CONTACT_PUSH;
            k->n = v2_scale(d, 1.0 / l);
            double vn = v2_dot(v2_sub(v0[b], v0[a]), k->n);
            int bounce = !inelastic && vn < -rest_threshold(r, ia, ib);
            k->target = bounce ? -r->restitution * vn : REST_BIAS * r->speed_scale;
        }
    int nball = nc;
    c2d_status st = C2D_OK;
    for (int round = 0; round <= LEVEL_ROUNDS; round++) {
        memcpy(v, v0, (size_t)m * sizeof v[0]);
        solve_cluster(r, c, nc, v, slot, m);
        int added = 0;
        for (int q = 0; q < m && st == C2D_OK; q++) {
            int b = cl[q];
            st = plan(r, b, t, p[q], v[q]);
            if (st != C2D_OK || round == LEVEL_ROUNDS || r->inv_mass[b] == 0)
                continue;
            /* A new path that starts with a solid level contact: the impulse pushed the ball into the
             * level, which must hold it as a wall does. */
            const ball_path *bp = &r->path[b];
            const knot *k = r->knots + bp->knot;
            double reach = TOUCH_FACTOR * c2d_sweep_tolerance(vec_magnitude(p[q]) + r->balls[b].radius);
            if (bp->nknot > 2 && v2_len(v2_sub(k[1].p, k[0].p)) <= reach && r->list.count > 0) {
                const c2d_contact_record *cr = &r->list.items[0];
                if (cr->contact.response != C2D_RESPONSE_CROSS && !cr->contact.pushed_out) {
                    int known = 0;
                    for (int z = nball; z < nc && !known; z++)
                        known = c[z].a == b && v2_dot(c[z].n, cr->contact.normal) > 1 - 1e-9;
                    if (!known) {
                        bcontact *nk = &c[nc++];
                        nk->a = b;
                        nk->kind = CONTACT_PUSH;
                        nk->b = -1;
                        nk->n = cr->contact.normal;
                        nk->target = REST_BIAS * r->speed_scale;
                        added = 1;
                    }
                }
            }
        }
        if (st != C2D_OK || !added)
            break;
    }
    if (st == C2D_OK)
        for (int q = 0; q < nball; q++)
            if (c[q].impulse > 0) {
                int a = c[q].a, b = c[q].b;
                record_pair(r, a, b, t, p[slot[a]], p[slot[b]], c[q].n, vel_at(r, a, t), vel_at(r, b, t));
            }
    free(slot);
    free(c);
    return st;
}

/* Resting contacts solved before the step (with rest_speed > 0): a pile under gravity, every ball a
 * little faster downwards each frame, would otherwise meet itself again and again within the step, one
 * ball pair at a time. Every pair of balls whose gap the step would close at no more than the rest
 * speed, and every ball whose level path meets a solid shape that slowly, is a contact (a speculative
 * one: at rest once it touches). A pair's normal speed must bring it to a rest gap of half the touching
 * tolerance by the step's end: closing a wider gap, opening a narrower one or an overlap. So a resting
 * pair ends each step where it began (a pile does not creep up or down from frame to frame), a little
 * apart, where the rounding of the solve cannot carry it into contact, and the events do not meet it
 * (a pair within the touching tolerance that closes no more than its gap is no event). A level
 * contact's normal speed may close what its path flies before it. Their impulses are solved together,
 * and the balls they change get new paths. The events that follow find whatever this leaves. Returns
 * a status. */
static c2d_status presolve(balls_run *r)
{
    int n = r->n, cap = 0, nc = 0;
    bcontact *c = NULL;
    int *idx = (int *)malloc(2 * (size_t)n * sizeof(int)), *slot = (int *)malloc((size_t)n * sizeof(int));
    c2d_vec2 *v = (c2d_vec2 *)malloc((size_t)n * sizeof(c2d_vec2));
    c2d_status st = C2D_OK;
    if (!idx || !slot || !v) {
        st = C2D_ERR_NO_MEMORY;
        goto done;
    }
    double dt = r->dt;
    for (int i = 0; i < n; i++) {
        idx[i] = i;
        slot[i] = i;
        v[i] = r->balls[i].velocity;
    }
    sort_by_x(r, idx, idx + n, n);
    for (int a = 0; a < n && st == C2D_OK; a++) {
        int i = idx[a];
        const c2d_aabb *bi = &r->path[i].box;
        for (int b = a + 1; b < n; b++) {
            int k = idx[b];
            const c2d_aabb *bk = &r->path[k].box;
            if (bk->min.x > bi->max.x)
                break;
            if (bk->min.y > bi->max.y || bi->min.y > bk->max.y || (r->inv_mass[i] == 0 && r->inv_mass[k] == 0))
                continue;
            c2d_vec2 d = v2_sub(r->balls[k].position, r->balls[i].position);
            double l = v2_len(d), R = r->balls[i].radius + r->balls[k].radius;
            if (!(l > 0))
                continue;
            c2d_vec2 nrm = v2_scale(d, 1.0 / l);
            double vn = v2_dot(v2_sub(v[k], v[i]), nrm), gap = l - R;
            /* Near enough to touch at rest speed within the step, and not meeting faster (the events
             * bounce those): a contact, which holds only if the others push them together. */
            double rs = rest_threshold(r, i, k);
            if (!(-vn <= rs && gap <= rs * dt))
                continue;
            if (nc == cap && !grow((void **)&c, &cap, nc + 1, sizeof *c)) {
                st = C2D_ERR_NO_MEMORY;
                break;
            }
            c[nc].a = i < k ? i : k;
            c[nc].b = i < k ? k : i;
            c[nc].n = i < k ? nrm : v2_neg(nrm);
            c[nc].target = (0.5 * pair_tol(r->balls[i].position, r->balls[k].position, R) - gap) / dt;
            c[nc].kind = CONTACT_PUSH;
            c[nc].mu = 0;
            nc++;
        }
    }
    int nball = nc;
    for (int round = 0; round < LEVEL_ROUNDS && st == C2D_OK; round++) {
        /* The level contacts the paths meet slowly, each once. */
        int added = 0;
        for (int i = 0; i < n; i++) {
            const ball_path *bp = &r->path[i];
            if (r->inv_mass[i] == 0 || bp->nrec == 0)
                continue;
            const level_rec *lr = &r->recs[bp->rec];
            const knot *k0 = r->knots + bp->knot;
            double vn = v2_dot(k0[0].v, lr->r.contact.normal);
            if (lr->r.contact.response == C2D_RESPONSE_CROSS || lr->r.contact.pushed_out ||
                !(vn < 0 && -vn <= r->rest_speed))
                continue;
            int known = 0;
            for (int z = nball; z < nc && !known; z++)
                known = c[z].a == i && c[z].kind == CONTACT_PUSH && v2_dot(c[z].n, lr->r.contact.normal) > 1 - 1e-9;
            if (known)
                continue;
            if (nc + 2 > cap && !grow((void **)&c, &cap, nc + 2, sizeof *c)) {
                st = C2D_ERR_NO_MEMORY;
                break;
            }
            c[nc].a = i;
            c[nc].b = -1;
            c[nc].n = lr->r.contact.normal;
            c[nc].target = vn * (lr->t / dt); /* it may close what it flies before the contact */
            c[nc].kind = CONTACT_PUSH;
            c[nc].mu = lr->r.contact.response == C2D_RESPONSE_BOUNCE && r->options ? r->options->friction : 0;
            nc++;
            if (c[nc - 1].mu > 0) { /* its grip: no speed along the surface, while friction holds */
                c[nc] = c[nc - 1];
                c[nc].n = v2(-c[nc - 1].n.y, c[nc - 1].n.x);
                c[nc].target = 0;
                c[nc].kind = CONTACT_GRIP;
                c[nc].mu = 0;
                nc++;
            }
            added = 1;
        }
        if (st != C2D_OK || nc == 0 || (round > 0 && !added))
            break;
        for (int i = 0; i < n; i++)
            v[i] = r->balls[i].velocity;
        for (int q = nball; q < nc; q++)
            if (c[q].kind == CONTACT_OFF)
                c[q].kind = CONTACT_GRIP; /* friction is shared out anew with the new contacts */
        solve_cluster(r, c, nc, v, slot, n);
        /* The level's friction on the balls it holds up, as a bounce's takes away up to friction times
         * the normal impulse from the speed along the surface: at rest on the level, a ball stops
         * sliding as c2d_static_set_step_ball's would. The solve above held every such ball still along
         * the surface (its grip). Where a grip needs more than friction times its contact's impulse,
         * the ball slides: rounds of sequential impulses with each grip within its friction cone share
         * the friction out, and each grip at the cone's edge lets go, its impulse kept as a fixed push
         * along the surface. A grip let go that pushes its ball the way the ball now slides (more than
         * stopping it) holds again. After each change the contacts and the holding grips are solved
         * again, exactly: the last word on the normal speeds is always an exact solve. */
        for (int pass = 0; pass < FRICTION_PASSES; pass++) {
            int slips = 0, holds = 0;
            for (int q = nball; q < nc; q++) {
                bcontact *grip = &c[q];
                if (grip->kind == CONTACT_GRIP && fabs(grip->impulse) > grip[-1].mu * grip[-1].impulse)
                    slips = 1;
                if (grip->kind == CONTACT_OFF && grip->held * v2_dot(v[grip->a], grip->n) > 0) {
                    grip->kind = CONTACT_GRIP;
                    holds = 1;
                }
            }
            if (!slips && !holds)
                break;
            if (!holds) {
                sweep_contacts(r, c, nc, v, slot, FRICTION_SWEEPS);
                for (int q = nball; q < nc; q++) {
                    bcontact *grip = &c[q];
                    double most = grip[-1].mu * grip[-1].impulse;
                    if (grip->kind == CONTACT_GRIP && fabs(grip->impulse) >= most * (1 - 1e-9)) {
                        grip->kind = CONTACT_OFF;
                        grip->held = grip->impulse;
                    }
                }
            }
            for (int i = 0; i < n; i++)
                v[i] = r->balls[i].velocity;
            for (int q = nball; q < nc; q++)
                if (c[q].kind == CONTACT_OFF)
                    v[c[q].a] = v2_mad(v[c[q].a], c[q].held * r->inv_mass[c[q].a], c[q].n);
            solve_cluster(r, c, nc, v, slot, n);
        }
        for (int i = 0; i < n && st == C2D_OK; i++) {
            c2d_vec2 cur = r->knots[r->path[i].knot].v;
            if (v[i].x != cur.x || v[i].y != cur.y)
                st = plan(r, i, 0.0, r->balls[i].position, v[i]);
        }
    }
done:
    free(idx);
    free(slot);
    free(v);
    free(c);
    return st;
}

/* The contact of balls i and j at time t (i < j), with their paths cut there. */
static c2d_status collide_pair(balls_run *r, int i, int j, double t)
{
    c2d_vec2 pi = pos_at(r, i, t), pj = pos_at(r, j, t), vi = vel_at(r, i, t), vj = vel_at(r, j, t);
    c2d_vec2 d = v2_sub(pj, pi);
    double l = v2_len(d);
    c2d_vec2 n = l > 0 ? v2_scale(d, 1.0 / l) : v2_normalize_or(v2_sub(vi, vj), v2(1, 0));
    double vn = v2_dot(v2_sub(vj, vi), n), wi = r->inv_mass[i], wj = r->inv_mass[j];
    if (vn < 0) {
        double jn = -(1.0 + r->restitution) * vn / (wi + wj);
        vi = v2_mad(vi, -jn * wi, n);
        vj = v2_mad(vj, jn * wj, n);
    }
    record_pair(r, i, j, t, pi, pj, n, vi, vj);
    c2d_status st = plan(r, i, t, pi, vi);
    if (st == C2D_OK)
        st = plan(r, j, t, pj, vj);
    return st;
}

/* ---- balls that start overlapping ---- */

/* Rounds of pushing apart balls that start overlapping (see separate). */
#define SEPARATE_ROUNDS 32

/* Keeps the push-outs that start ball b's path as records: its path is about to be planned anew from
 * where they left it. */
static void keep_push_outs(balls_run *r, int b)
{
    const ball_path *bp = &r->path[b];
    for (int q = 0; q < bp->nrec; q++) {
        const level_rec *lr = &r->recs[bp->rec + q];
        if (lr->t > 0)
            break;
        if (!lr->r.contact.pushed_out)
            continue;
        out_rec *o = push_out(r);
        if (!o)
            return;
        o->r = lr->r;
        o->t = 0;
    }
}

/* Pushes ball b at *p out of the level as it stands at the step's start (a step of no time), keeping
 * the push-outs as records; *p becomes where it ends, and wall[0] the last push-out's normal (if any),
 * wall[1] the one before of another wall. */
static c2d_status push_from_level(balls_run *r, int b, c2d_vec2 *p, c2d_vec2 *wall)
{
    c2d_ball ball = r->own[b];
    ball.position = *p;
    c2d_record_list_clear(&r->list);
    c2d_move_result res;
    c2d_status st = c2d_static_set_step_ball_list(r->set, &ball, 0.0, r->options, &res, &r->list);
    if (st != C2D_OK)
        return st;
    c2d_vec2 from = *p;
    for (int q = 0; q < r->list.count; q++) {
        if (!r->list.items[q].contact.pushed_out)
            continue;
        out_rec *o = push_out(r);
        if (!o)
            break;
        o->r = r->list.items[q];
        o->r.contact.t = 0;
        o->r.id = (c2d_world_id)b + 1;
        o->t = 0;
        /* The two last walls met (a corner holds a ball with two), as the way they pushed it: in a
         * corner the contact's normal may name the other wall. */
        c2d_vec2 nw = v2_normalize_or(v2_sub(r->list.items[q].position, from), r->list.items[q].contact.normal);
        from = r->list.items[q].position;
        if (!(v2_dot(nw, wall[0]) > 1 - 1e-9))
            wall[1] = wall[0];
        wall[0] = nw;
    }
    *p = ball.position;
    return C2D_OK;
}

/* The pairs of the balls as they start (at: their centres) that may be pushed apart and lie less than
 * reach apart (reach 0: overlap deeper than touching), each a contact into *c (grown) whose target is what the
 * pushes must open: to half a touching tolerance apart. key: n entries of scratch. Returns the deepest
 * overlap (0 for none) and the count in *nc, or -1 when memory ran out. */
static double start_pairs(balls_run *r, const c2d_vec2 *at, contact_key *key, double reach, bcontact **c, int *cap,
                          int *nc)
{
    const c2d_ball *own = r->balls;
    int n = r->n;
    for (int i = 0; i < n; i++) {
        key[i].key = at[i].x - own[i].radius;
        key[i].q = i;
    }
    qsort(key, (size_t)n, sizeof *key, compare_key);
    double deepest = 0;
    *nc = 0;
    for (int a = 0; a < n; a++) {
        int i = key[a].q;
        for (int b = a + 1; b < n && key[b].key <= at[i].x + own[i].radius + reach; b++) {
            int k = key[b].q;
            if (r->inv_mass[i] == 0 && r->inv_mass[k] == 0)
                continue;
            c2d_vec2 d = v2_sub(at[k], at[i]);
            double l = v2_len(d), R = own[i].radius + own[k].radius, tol = pair_tol(at[i], at[k], R);
            if (!(l - R < (reach > 0 ? reach : -tol)))
                continue;
            deepest = c2d_max_num(deepest, R - l);
            if (!c)
                continue;
            if (*nc == *cap && !grow((void **)c, cap, *nc + 1, sizeof **c))
                return -1;
            bcontact *q = &(*c)[(*nc)++];
            q->a = i < k ? i : k;
            q->b = i < k ? k : i;
            /* From a to b; for one centre, along x. */
            q->n = l > 0 ? v2_scale(i < k ? d : v2_neg(d), 1.0 / l) : v2(1, 0);
            q->target = R - l + 0.5 * tol;
            q->impulse = 0;
            q->kind = CONTACT_PUSH;
            q->mu = q->held = 0;
        }
    }
    return deepest;
}

/* Balls that start the step overlapping deeper than touching (placed so, or pushed out of the level
 * onto each other) are pushed apart first, as c2d_static_set_step_ball pushes a ball out of the level,
 * and out of the level again from there: round after round, the pushes that open every pair overlapping
 * (or near enough to be pushed into one) to half a touching tolerance apart, shared by inverse mass, the
 * balls standing against the level held by it (the resting clusters' exact solve, with displacements
 * for velocities), until no pair overlaps or SEPARATE_ROUNDS have run (balls crammed into a pit too
 * small for them stay as the last round left them). Each pair pushed apart gives its two records, with
 * pushed_out 1, at time 0. The balls moved start their paths anew where they end, with the velocities
 * they were given; r->balls becomes r->own, the balls as they now start (a rest speed's solve runs
 * again from there). */
static c2d_status separate(balls_run *r)
{
    int n = r->n, cap = 0, nc = 0;
    r->own = (c2d_ball *)malloc((size_t)n * sizeof(c2d_ball));
    contact_key *key = (contact_key *)malloc((size_t)n * sizeof(contact_key)); /* (key: a left side) */
    c2d_vec2 *wall = (c2d_vec2 *)calloc(2 * (size_t)n, sizeof(c2d_vec2));
    c2d_vec2 *move = (c2d_vec2 *)malloc((size_t)n * sizeof(c2d_vec2));
    c2d_vec2 *at = (c2d_vec2 *)malloc((size_t)n * sizeof(c2d_vec2));
    int *slot = (int *)malloc((size_t)n * sizeof(int));
    bcontact *c = NULL;
    c2d_status st = C2D_OK;
    if (!r->own || !key || !wall || !move || !at || !slot) {
        st = C2D_ERR_NO_MEMORY;
        goto done;
    }
    c2d_ball *own = r->own;
    for (int i = 0; i < n; i++) {
        own[i] = r->balls[i];
        at[i] = pos_at(r, i, 0);
        slot[i] = i;
        /* A ball the level pushed out stands against it (see push_from_level). */
        const ball_path *bp = &r->path[i];
        c2d_vec2 from = r->knots[bp->knot].p;
        for (int q = 0; q < bp->nrec && r->recs[bp->rec + q].t <= 0; q++) {
            const c2d_contact_record *cr = &r->recs[bp->rec + q].r;
            if (!cr->contact.pushed_out)
                continue;
            c2d_vec2 nw = v2_normalize_or(v2_sub(cr->position, from), cr->contact.normal);
            from = cr->position;
            if (!(v2_dot(nw, wall[2 * i]) > 1 - 1e-9))
                wall[2 * i + 1] = wall[2 * i];
            wall[2 * i] = nw;
        }
    }
    r->balls = own;
    double scale = r->speed_scale;
    /* mark: 1, moved this round; 2, moved before (its path's push-outs kept). */
    for (int round = 0; round < SEPARATE_ROUNDS && st == C2D_OK; round++) {
        double deepest = start_pairs(r, at, key, 0, NULL, &cap, &nc);
        if (!(deepest > 0))
            break;
        if (start_pairs(r, at, key, deepest, &c, &cap, &nc) < 0) {
            st = C2D_ERR_NO_MEMORY;
            break;
        }
        int nball = nc;
        for (int w = 0; w < 2 * n; w++) {
            int i = w / 2;
            if (r->inv_mass[i] == 0 || (wall[w].x == 0 && wall[w].y == 0))
                continue;
            if (nc == cap && !grow((void **)&c, &cap, nc + 1, sizeof *c)) {
                st = C2D_ERR_NO_MEMORY;
                break;
            }
            bcontact *q = &c[nc++];
            q->a = i;
            q->b = -1;
            q->n = wall[w];
            q->target = 0;
            q->impulse = 0;
            q->kind = CONTACT_PUSH;
            q->mu = q->held = 0;
        }
        if (st != C2D_OK)
            break;
        for (int i = 0; i < n; i++)
            move[i] = v2(0, 0);
        r->speed_scale = deepest; /* the solve's tolerance: a fraction of the pushes */
        solve_cluster(r, c, nc, move, slot, n);
        r->speed_scale = scale;
        /* Pushes that would take a ball beyond the coordinate range are not made: such balls stay
         * as they are (the step could not start from there). */
        int beyond = 0;
        for (int i = 0; i < n && !beyond; i++)
            beyond = c2d_check_vec(v2_add(at[i], move[i])) != C2D_OK;
        if (beyond)
            break;
        for (int q = 0; q < nball; q++) {
            if (!(c[q].impulse > 0))
                continue;
            int pair[2] = {c[q].a, c[q].b};
            for (int z = 0; z < 2; z++) {
                if (!(r->mark[pair[z]] & 2))
                    keep_push_outs(r, pair[z]);
                r->mark[pair[z]] |= 2;
            }
        }
        for (int i = 0; i < n; i++)
            if (move[i].x != 0 || move[i].y != 0) {
                at[i] = v2_add(at[i], move[i]);
                r->mark[i] |= 3;
                /* Off a wall it moved away from (the level pushes it back if it is not). */
                for (int w = 2 * i; w < 2 * i + 2; w++)
                    if (v2_dot(move[i], wall[w]) > 0)
                        wall[w] = v2(0, 0);
            }
        for (int q = 0; q < nball; q++) {
            if (!(c[q].impulse > 0))
                continue;
            long first = r->nout;
            int a = c[q].a, b = c[q].b;
            record_pair(r, a, b, 0.0, at[a], at[b], c[q].n, own[a].velocity, own[b].velocity);
            for (long z = first; z < r->nout; z++)
                r->out[z].r.contact.pushed_out = 1;
        }
        for (int i = 0; i < n && st == C2D_OK; i++) {
            if (r->mark[i] & 1)
                st = push_from_level(r, i, &at[i], &wall[2 * i]);
            r->mark[i] &= 2;
        }
    }
    for (int i = 0; i < n; i++) {
        if (r->mark[i] && st == C2D_OK) {
            own[i].position = at[i];
            st = plan(r, i, 0.0, at[i], own[i].velocity);
        }
        r->mark[i] = 0;
    }
done:
    free(key);
    free(wall);
    free(move);
    free(at);
    free(slot);
    free(c);
    return r->no_memory && st == C2D_OK ? C2D_ERR_NO_MEMORY : st;
}

/* ---- the call ---- */

static int compare_out(const void *x, const void *y)
{
    const out_rec *a = (const out_rec *)x, *b = (const out_rec *)y;
    if (a->t != b->t)
        return a->t < b->t ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

static c2d_status check_input(const c2d_static_set *set, const c2d_ball *balls, const double *masses, int n, double dt,
                              const c2d_balls_options *bo)
{
    if (n < 0)
        return C2D_ERR_RANGE;
    if (!set || (n > 0 && !balls))
        return C2D_ERR_NULL;
    return c2d_balls_check(balls, masses, n, dt, bo);
}

c2d_status c2d_balls_check(const c2d_ball *balls, const double *masses, int n, double dt, const c2d_balls_options *bo)
{
    if (n < 0)
        return C2D_ERR_RANGE;
    if (n > 0 && !balls)
        return C2D_ERR_NULL;
    c2d_status st = c2d_check_number(dt);
    if (st != C2D_OK)
        return st;
    if (dt < 0)
        return C2D_ERR_RANGE;
    if (bo) {
        if (!isfinite(bo->restitution) || !isfinite(bo->rest_speed))
            return C2D_ERR_NOT_FINITE;
        if (bo->restitution < 0 || bo->restitution > 1 || bo->rest_speed < 0 || bo->rest_speed > C2D_MAX_COORDINATE ||
            bo->max_events < 0)
            return C2D_ERR_RANGE;
    }
    for (int i = 0; i < n; i++) {
        const c2d_ball *b = &balls[i];
        if ((st = c2d_check_vec(b->position)) != C2D_OK || (st = c2d_check_vec(b->velocity)) != C2D_OK ||
            (st = c2d_check_number(b->radius)) != C2D_OK)
            return st;
        if (!(b->radius > 0))
            return C2D_ERR_SIZE;
        if (vec_magnitude(b->velocity) * dt > C2D_MAX_COORDINATE)
            return C2D_ERR_RANGE;
        if (masses) {
            if (isnan(masses[i]) || masses[i] == -INFINITY)
                return C2D_ERR_NOT_FINITE;
            if (!(masses[i] > 0))
                return C2D_ERR_RANGE;
        }
    }
    return C2D_OK;
}

/* Masses within 2^-MASS_EXP to 2^MASS_EXP have their inverses as they are. Beyond, every inverse mass is
 * scaled by one power of two, which changes no velocity (an impulse's effect is a ratio of them), so
 * that the heaviest ball's is 2^-MASS_EXP, and those of balls more than 2^(2 MASS_EXP) lighter are
 * clamped at 2^MASS_EXP: such a ball meets the heavier ones as off a wall, as it would anyway within
 * rounding, and two of them meet as if of one mass. No sum or product of inverse masses overflows (a
 * mass of 5e-324 has no finite inverse) or vanishes. */
#define MASS_EXP 500

/* The power of two the inverse masses are scaled by (0: none). */
static int mass_shift(const double *masses, int n)
{
    int lo = 0, hi = 0, any = 0;
    for (int i = 0; masses && i < n; i++) {
        if (isinf(masses[i]))
            continue;
        int e;
        frexp(masses[i], &e);
        lo = any && lo < e ? lo : e;
        hi = any && hi > e ? hi : e;
        any = 1;
    }
    if (!any || (lo > -MASS_EXP && hi < MASS_EXP))
        return 0;
    return hi - MASS_EXP;
}

static double inverse_mass(const double *masses, int i, int shift)
{
    if (!masses)
        return 1.0;
    if (isinf(masses[i]))
        return 0.0;
    if (shift == 0)
        return 1.0 / masses[i];
    int e;
    double f = frexp(masses[i], &e);
    int x = shift - e;
    x = x < -MASS_EXP ? -MASS_EXP : x > MASS_EXP ? MASS_EXP : x;
    return ldexp(1.0 / f, x);
}

c2d_status c2d_static_set_step_balls(const c2d_static_set *set, c2d_ball *balls, const double *masses, int n,
                                     double dt, const c2d_move_options *options,
                                     const c2d_balls_options *ball_options, c2d_move_result *result,
                                     c2d_records_fn report, void *report_ctx)
{
    c2d_status st = check_input(set, balls, masses, n, dt, ball_options);
    if (st != C2D_OK)
        return st;
    balls_run r;
    memset(&r, 0, sizeof r);
    r.set = set;
    r.balls = balls;
    r.n = n;
    r.dt = dt;
    r.options = options;
    r.restitution = ball_options ? ball_options->restitution : 1.0;
    r.rest_speed = ball_options ? ball_options->rest_speed : 0.0;
    r.speed_scale = r.rest_speed;
    for (int i = 0; i < n; i++)
        r.speed_scale = c2d_max_num(r.speed_scale, v2_len(balls[i].velocity));
    r.report = 1; /* records are counted even when not reported */
    long max_events = ball_options && ball_options->max_events > 0
                          ? ball_options->max_events
                          : MAX_EVENTS_BASE + (long)MAX_EVENTS_PER_BALL * n;
    c2d_record_list_init(&r.list, r.list_stack, 16);
    size_t nn = n > 0 ? (size_t)n : 1;
    r.inv_mass = (double *)malloc(nn * sizeof(double));
    r.path = (ball_path *)malloc(nn * sizeof(ball_path));
    r.best = (best_event *)malloc(nn * sizeof(best_event));
    r.mark = (unsigned char *)calloc(nn, 1);
    r.cluster = (int *)malloc(MAX_CLUSTER * sizeof(int));
    c2d_ball *out = (c2d_ball *)malloc(nn * sizeof(c2d_ball));
    r.last_t = (double *)malloc(nn * sizeof(double));
    r.repeats = (int *)calloc(nn, sizeof(int));
    r.order = (int *)malloc(nn * sizeof(int));
    if (!r.inv_mass || !r.path || !r.best || !r.mark || !r.cluster || !out || !r.last_t || !r.repeats || !r.order)
        st = C2D_ERR_NO_MEMORY;
    for (int i = 0; i < n && st == C2D_OK; i++)
        r.last_t[i] = -INFINITY;
    int shift = mass_shift(masses, n);
    for (int i = 0; i < n && st == C2D_OK; i++) {
        r.inv_mass[i] = inverse_mass(masses, i, shift);
        st = plan(&r, i, 0.0, balls[i].position, balls[i].velocity);
    }
    if (st == C2D_OK && n > 1 && !sort_order(&r))
        st = C2D_ERR_NO_MEMORY;
    /* (A step of no time has no resting contacts to solve: their speeds would be gaps over no time.) */
    if (st == C2D_OK && n > 0 && r.rest_speed > 0 && dt > 0) {
        st = presolve(&r);
        reorder(&r);
    }
    if (st == C2D_OK && n > 1)
        initial_events(&r);
    if (st == C2D_OK && r.overlap) {
        /* Balls that start overlapping: pushed apart, and the step begun again from there. */
        st = separate(&r);
        reorder(&r);
        if (st == C2D_OK && r.rest_speed > 0 && dt > 0) {
            st = presolve(&r);
            reorder(&r);
        }
        if (st == C2D_OK)
            initial_events(&r);
    }
    double now = 0;
    long events = 0;
    while (st == C2D_OK && n > 1) {
        int i = -1;
        for (int k = 0; k < n; k++)
            if (r.best[k].t < INFINITY && (i < 0 || r.best[k].t < r.best[i].t))
                i = k;
        if (i < 0)
            break;
        int j = r.best[i].partner;
        double t = r.best[i].t;
        if (t < now)
            t = now; /* never back in time: a late find counts as now */
        if (++events > max_events) {
            r.truncated = 1;
            break;
        }
        now = t;
        int a = i < j ? i : j, b = i < j ? j : i;
        /* The balls whose paths change: the pair, or a resting cluster; mark them by their new knots. */
        int before_knots = r.nknots;
        commit(&r, a, t);
        commit(&r, b, t);
        c2d_vec2 pa = pos_at(&r, a, t), pb = pos_at(&r, b, t), va = vel_at(&r, a, t), vb = vel_at(&r, b, t);
        double vn = v2_dot(v2_sub(vb, va), v2_normalize_or(v2_sub(pb, pa), v2(1, 0)));
        /* A ball's second contact at one instant (or all but: within a billionth of the step) is a
         * simultaneous contact, a ball wedged between others and the level; bounced pair by pair, its
         * bounces would go round for ever. Solved at once with the cluster's, and at rest once it
         * repeats. */
        double instant = INSTANT * dt;
        int again = t - r.last_t[a] <= instant || t - r.last_t[b] <= instant;
        int stuck = again && (r.repeats[a] >= 2 || r.repeats[b] >= 2);
        r.repeats[a] = t - r.last_t[a] <= instant ? r.repeats[a] + 1 : 0;
        r.repeats[b] = t - r.last_t[b] <= instant ? r.repeats[b] + 1 : 0;
        r.last_t[a] = r.last_t[b] = t;
        if (again || (vn < 0 && -vn <= rest_threshold(&r, a, b))) {
            int m = gather(&r, a, b, t);
            for (int q = 2; q < m; q++)
                commit(&r, r.cluster[q], t);
            st = rest_cluster(&r, m, t, stuck);
        } else {
            st = collide_pair(&r, a, b, t);
        }
        if (st != C2D_OK)
            break;
        /* Every ball with a new path (its knots lie beyond before_knots) looks for its next event anew,
         * and so does every ball whose next event was with one of them. */
        for (int k = 0; k < n; k++)
            if ((r.mark[k] = r.path[k].knot >= before_knots) != 0)
                r.width = c2d_max_num(r.width, r.path[k].box.max.x - r.path[k].box.min.x);
        reorder(&r);
        for (int k = 0; k < n; k++)
            if (r.mark[k] || (r.best[k].partner >= 0 && r.mark[r.best[k].partner]))
                find_best(&r, k, t);
        memset(r.mark, 0, nn);
        if (r.no_memory)
            st = C2D_ERR_NO_MEMORY;
    }
    if (st == C2D_OK) {
        double end = r.truncated && events > max_events ? now : dt;
        for (int i = 0; i < n; i++) {
            commit(&r, i, end);
            out[i] = balls[i];
            out[i].position = pos_at(&r, i, end);
            out[i].velocity = vel_at(&r, i, end);
        }
        if (r.no_memory)
            st = C2D_ERR_NO_MEMORY;
    }
    if (st == C2D_OK && report) {
        if (r.nout > 1)
            qsort(r.out, (size_t)r.nout, sizeof r.out[0], compare_out);
        if (r.nout > INT32_MAX) {
            st = C2D_ERR_NO_MEMORY;
        } else {
            c2d_contact_record *recs = (c2d_contact_record *)malloc((size_t)(r.nout > 0 ? r.nout : 1) * sizeof *recs);
            if (!recs) {
                st = C2D_ERR_NO_MEMORY;
            } else {
                for (long q = 0; q < r.nout; q++)
                    recs[q] = r.out[q].r;
                st = report(report_ctx, recs, (int)r.nout);
                free(recs);
            }
        }
    }
    if (st == C2D_OK) {
        if (n > 0) /* balls may be NULL with n = 0, and memcpy takes no NULL even for no bytes */
            memcpy(balls, out, (size_t)n * sizeof *balls);
        if (result) {
            memset(result, 0, sizeof *result);
            result->travelled = r.travelled;
            result->count = (int)(r.nout < INT32_MAX ? r.nout : INT32_MAX);
            result->truncated = r.truncated;
        }
    }
    c2d_record_list_free(&r.list);
    free(r.inv_mass);
    free(r.path);
    free(r.best);
    free(r.mark);
    free(r.cluster);
    free(r.last_t);
    free(r.repeats);
    free(r.order);
    free(r.own);
    free(r.knots);
    free(r.recs);
    free(r.out);
    free(out);
    return st;
}
