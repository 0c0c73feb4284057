/* turnsweep.c - time of impact of two convex shapes that turn as they move: conservative advancement
 * with a proven bound, sped up near contact by a second, tighter bound that is still proven.
 * Layer 3 (kernels).
 *
 * At time t the two rounded cores are d apart along the unit normal n (from A to B). Along that fixed
 * direction their separation s(t') = min over B of n.x - max over A of n.x - rA - rB is never more than
 * their distance, and s(t) = d. A point of a shape turning at w about its pivot moves at v + w r
 * across, |r| <= rho (the farthest core vertex from the pivot; the radius turns with the core and
 * changes no support), so
 *
 *   s(t + tau) >= d - tau mu,   mu = n.(vA - vB) + |wA| rhoA + |wB| rhoB            (1)
 *
 * and stepping tau = (d - target) / mu never passes a contact. Near a contact mu can be far above the
 * real rate of approach (a ball near a flipper's hinge while its tip sweeps fast), and (1) alone then
 * creeps. The second bound keeps each vertex's own place p and rate u along n at time t; a vertex r from
 * its pivot, turning at w, accelerates by exactly w^2 r (k below), so
 *
 *   s(t + tau) >= L(tau) = min_B (p + tau u - k tau^2 / 2) - max_A (p + tau u + k tau^2 / 2) - rA - rB   (2)
 *
 * L is concave with L(0) = d, so L >= target over [0, tau] as soon as L(tau) >= target: one evaluation
 * checks a step. Newton's method on a concave function approaches its root from above, so it aims a
 * little above target and takes the first iterate that checks.
 *
 * Along a fixed direction the support of a turning face is its far end, which sweeps faster than the
 * point of the face under the other shape, so (2) still steps short near a flipper. The third bound
 * follows a face as it turns: a convex core lies behind the line of each of its faces, so the height of
 * the other core's vertices over that line, g_i, less the radii, never exceeds the distance. Each g_i
 * is smooth, with its rate u_i at time t and an acceleration bounded by m_i (face_step), so
 *
 *   distance(t + tau) >= G(tau) = min_i (g_i + tau u_i - m_i tau^2 / 2) - rA - rB                   (3)
 *
 * concave again, checked and solved as (2). Taken for the face of either core that the other stands
 * farthest in front of, it follows the touching features themselves: a ball falling onto a turning
 * flipper needs 1.4 steps on average (8 with (1) and (2) alone). */
#include "turnsweep.h"

#include <stdlib.h>
#include <string.h>

#include "trig.h"

/* Steps at most; after them the sweep answers a contact at the time reached (which is still before any
 * contact: a mover stopped there is stopped early, never inside). Only a motion grazing another shape
 * within a hair over most of the unit of time needs that many. */
#define TURN_MAX_STEPS 200
/* Newton iterations per step on the bound (2). */
#define TURN_NEWTON 8
#define TURN_STACK 32

typedef struct placed {
    c2d_vec2 *v, *n; /* the core at the time placed */
    int count;
    double radius;
    double rho; /* farthest vertex from the pivot */
} placed;

static double farthest(const c2d_core *k, c2d_vec2 c)
{
    double r2 = 0;
    for (int i = 0; i < k->count; i++)
        r2 = c2d_max_num(r2, v2_len2(v2_sub(k->v[i], c)));
    return sqrt(r2);
}

static void place(const c2d_core *k, const c2d_rigid *m, double t, placed *out)
{
    double s = 0, c = 1;
    if (m->w != 0)
        c2d_sincos(m->w * t, &s, &c);
    for (int i = 0; i < k->count; i++)
        out->v[i] = c2d_rigid_apply(m, t, s, c, k->v[i]);
    int edges = k->count >= 2 ? k->count : 0;
    for (int i = 0; i < edges; i++)
        out->n[i] = v2(c * k->n[i].x - s * k->n[i].y, s * k->n[i].x + c * k->n[i].y);
}

/* Signed distance of the rounded cores (negative when overlapping), the normal from A to B and the
 * contact point, through the Minkowski difference as c2d_sweep measures it. */
static double measure(const placed *a, const placed *b, c2d_vec2 *hv, c2d_vec2 *hn, int *bvert, int *avert,
                      c2d_vec2 *normal, int *corner)
{
    c2d_rhull h;
    c2d_vec2 o = v2(0, 0);
    if (a->count == 1) {
        /* A point (a ball's centre): the hull is B's own core, seen from the point. */
        h.n = b->count;
        h.v = b->v;
        h.nrm = b->count >= 2 ? b->n : NULL;
        h.bvert = h.avert = NULL;
        o = a->v[0];
    } else {
        h.n = c2d_minkowski(b->v, b->count >= 2 ? b->n : NULL, b->count, a->v, a->count >= 2 ? a->n : NULL, a->count,
                            hv, hn, bvert, avert);
        h.v = hv;
        h.nrm = hn;
        h.bvert = bvert;
        h.avert = avert;
    }
    h.r = a->radius + b->radius;
    c2d_rhull_hit f;
    double sd = c2d_rhull_signed_distance(&h, o, &f);
    /* Nearest to an edge, the distance is along its normal: that one, not the direction to the nearest
     * point, which two shapes touching to the last bit (a character a turning platform carries) leave
     * to rounding. */
    if (f.is_edge) {
        f.normal = h.nrm[f.k];
    } else if (h.n >= 3 && h.nrm) {
        /* Nearest to a vertex, the direction to it lies within the vertex's cone of normals, between
         * those of its two edges: unless rounding drew it, the two touching at that vertex (a box's
         * corner on a platform's that turns), and then a direction outside would measure the gap
         * along a line the hull reaches further along, and bound (1) would step past a contact. */
        c2d_vec2 n0 = h.nrm[(f.k + h.n - 1) % h.n], n1 = h.nrm[f.k];
        if (!(v2_cross(n0, f.normal) >= 0 && v2_cross(f.normal, n1) >= 0))
            f.normal = v2_dot(f.normal, n0) > v2_dot(f.normal, n1) ? n0 : n1;
    }
    *normal = v2_neg(f.normal);
    *corner = !f.is_edge && h.r == 0 && h.n >= 2;
    return sd;
}

/* The contact point midway between the closest points of the two cores, each moved out to its surface
 * (where two edges lie a hair from flush, the middle of their overlap, the translation sweep's rule,
 * is a hair off both). */
static c2d_vec2 contact_point(const placed *a, const placed *b, c2d_vec2 normal)
{
    c2d_core ka, kb;
    ka.v = a->v;
    ka.n = a->count >= 2 ? a->n : NULL;
    ka.count = a->count;
    ka.radius = a->radius;
    kb.v = b->v;
    kb.n = b->count >= 2 ? b->n : NULL;
    kb.count = b->count;
    kb.radius = b->radius;
    c2d_vec2 qa, qb;
    c2d_core_distance(&ka, &kb, &qa, &qb);
    c2d_vec2 n = v2_normalize_or(v2_sub(qb, qa), normal);
    return v2_scale(v2_add(v2_mad(qa, a->radius, n), v2_mad(qb, -b->radius, n)), 0.5);
}

/* The bound (2) at tau, with each vertex's place and rate along n in pa/ua (A) and pb/ub (B). */
static double lower(const double *pa, const double *ua, const double *ka, int na, const double *pb, const double *ub,
                    const double *kb, int nb, double radii, double tau, double *slope)
{
    double hi = -INFINITY, lo = INFINITY, sa = 0, sb = 0;
    for (int i = 0; i < na; i++) {
        double x = pa[i] + tau * (ua[i] + 0.5 * ka[i] * tau);
        if (x > hi) {
            hi = x;
            sa = ua[i] + ka[i] * tau;
        }
    }
    for (int i = 0; i < nb; i++) {
        double x = pb[i] + tau * (ub[i] - 0.5 * kb[i] * tau);
        if (x < lo) {
            lo = x;
            sb = ub[i] - kb[i] * tau;
        }
    }
    *slope = sb - sa;
    return lo - hi - radii;
}

/* How far past t the bound (2) proves the separation stays >= target (0 when it proves nothing). */
static double proven_step(const placed *a, const c2d_rigid *ma, const placed *b, const c2d_rigid *mb, double t,
                          c2d_vec2 n, double target, double aim, double room, double *scratch)
{
    double *pa = scratch, *ua = pa + a->count, *ka = ua + a->count;
    double *pb = ka + a->count, *ub = pb + b->count, *kb = ub + b->count;
    c2d_vec2 ca = v2_mad(ma->c, t, ma->v), cb = v2_mad(mb->c, t, mb->v);
    double wa = ma->w * ma->w, wb = mb->w * mb->w;
    for (int i = 0; i < a->count; i++) {
        pa[i] = v2_dot(n, a->v[i]);
        ua[i] = v2_dot(n, c2d_rigid_velocity_at(ma, t, a->v[i]));
        ka[i] = wa * v2_len(v2_sub(a->v[i], ca));
    }
    for (int i = 0; i < b->count; i++) {
        pb[i] = v2_dot(n, b->v[i]);
        ub[i] = v2_dot(n, c2d_rigid_velocity_at(mb, t, b->v[i]));
        kb[i] = wb * v2_len(v2_sub(b->v[i], cb));
    }
    double radii = a->radius + b->radius, slope;
    double l0 = lower(pa, ua, ka, a->count, pb, ub, kb, b->count, radii, 0, &slope);
    if (!(l0 >= target))
        return 0;
    /* Where L drops to target lies before both the root of its tangent at 0 and room; from there
     * Newton descends to it. */
    double tau = room;
    if (slope < 0)
        tau = c2d_mind(tau, (l0 - aim) / -slope);
    for (int k = 0; k < TURN_NEWTON && tau > 0; k++) {
        double l = lower(pa, ua, ka, a->count, pb, ub, kb, b->count, radii, tau, &slope);
        if (l >= target)
            return tau;
        if (!(slope < 0))
            return 0;
        tau -= (l - aim) / slope;
    }
    return 0;
}

/* The concave lower bound G(tau) = min_i (g_i + tau u_i - m_i tau^2 / 2) - radii and its slope. */
static double face_lower(const double *g, const double *u, const double *m, int n, double radii, double tau,
                         double *slope)
{
    double lo = INFINITY, s = 0;
    for (int i = 0; i < n; i++) {
        double x = g[i] + tau * (u[i] - 0.5 * m[i] * tau);
        if (x < lo) {
            lo = x;
            s = u[i] - m[i] * tau;
        }
    }
    *slope = s;
    return lo - radii;
}

/* The bound (3): how far past t the face of b that best separates the two (its line, turning and moving
 * with b, has all of b behind it, so a's distance in front of it bounds the distance between them)
 * proves the separation stays >= target; 0 when it proves nothing. For a vertex a_i of a, g_i is its
 * height over the face's line, u_i its rate and m_i a bound on its acceleration over the time left,
 * from the two turns and the relative motion:
 *
 *   m_i = wb^2 (|x_i| + room V_i) + 2 |wb| V_i + wa^2 r_i,   V_i = |va - vb| + |wa| r_i,
 *
 * x_i = a_i - cb (b's pivot) and r_i = |a_i - ca|. */
static double face_step(const placed *a, const c2d_rigid *ma, const placed *b, const c2d_rigid *mb, double t,
                        double target, double aim, double room, double *scratch)
{
    int edges = b->count >= 2 ? b->count : 0;
    if (edges == 0)
        return 0;
    c2d_vec2 ca = v2_mad(ma->c, t, ma->v), cb = v2_mad(mb->c, t, mb->v);
    double radii = a->radius + b->radius;
    /* The face a stands farthest in front of. */
    int best = -1;
    double sep = -INFINITY;
    for (int f = 0; f < edges; f++) {
        c2d_vec2 n = b->n[f], q = b->v[f];
        double lo = INFINITY;
        for (int i = 0; i < a->count; i++)
            lo = c2d_mind(lo, v2_dot(n, v2_sub(a->v[i], q)));
        if (lo > sep) {
            sep = lo;
            best = f;
        }
    }
    if (!(sep - radii >= target))
        return 0;
    c2d_vec2 n = b->n[best], q = b->v[best], dn = v2(-mb->w * n.y, mb->w * n.x);
    double *g = scratch, *u = g + a->count, *m = u + a->count;
    double dv = v2_len(v2_sub(ma->v, mb->v)), wa = fabs(ma->w), wb = fabs(mb->w);
    for (int i = 0; i < a->count; i++) {
        c2d_vec2 x = v2_sub(a->v[i], cb);
        c2d_vec2 xv = v2_sub(c2d_rigid_velocity_at(ma, t, a->v[i]), mb->v);
        double r = v2_len(v2_sub(a->v[i], ca)), vi = dv + wa * r;
        g[i] = v2_dot(n, v2_sub(a->v[i], q));
        u[i] = v2_dot(dn, v2_sub(a->v[i], q)) + v2_dot(n, v2_sub(xv, v2(-mb->w * (q.y - cb.y), mb->w * (q.x - cb.x))));
        m[i] = wb * wb * (v2_len(x) + room * vi) + 2 * wb * vi + wa * wa * r;
    }
    double slope, l0 = face_lower(g, u, m, a->count, radii, 0, &slope);
    if (!(l0 >= target))
        return 0;
    double tau = room;
    if (slope < 0)
        tau = c2d_mind(tau, (l0 - aim) / -slope);
    for (int k = 0; k < TURN_NEWTON && tau > 0; k++) {
        double l = face_lower(g, u, m, a->count, radii, tau, &slope);
        if (l >= target)
            return tau;
        if (!(slope < 0))
            return 0;
        tau -= (l - aim) / slope;
    }
    return 0;
}

c2d_status c2d_core_sweep_rigid(const c2d_core *a, const c2d_rigid *ma, const c2d_core *b, const c2d_rigid *mb,
                                double tmax, double tol, int *found, c2d_rigid_hit *hit)
{
    *found = 0;
    int cap = a->count + b->count;
    /* placed a (v, n), placed b (v, n), hull (v, n), then the feature maps and the bound's numbers. */
    size_t bytes = (size_t)cap * (4 * sizeof(c2d_vec2) + 2 * sizeof(int) + 3 * sizeof(double));
    union {
        char bytes[TURN_STACK * (4 * sizeof(c2d_vec2) + 2 * sizeof(int) + 3 * sizeof(double))];
        double align;
    } stack;
    char *mem = stack.bytes;
    void *heap = NULL;
    if (cap > TURN_STACK) {
        heap = malloc(bytes);
        if (!heap)
            return C2D_ERR_NO_MEMORY;
        mem = (char *)heap;
    }
    placed pa, pb;
    c2d_vec2 *vec = (c2d_vec2 *)mem;
    pa.v = vec;
    pa.n = vec + a->count;
    pb.v = pa.n + a->count;
    pb.n = pb.v + b->count;
    c2d_vec2 *hv = pb.n + b->count, *hn = hv + cap;
    double *scratch = (double *)(hn + cap);
    int *bvert = (int *)(scratch + 3 * cap), *avert = bvert + cap;
    pa.count = a->count;
    pa.radius = a->radius;
    pa.rho = farthest(a, ma->c);
    pb.count = b->count;
    pb.radius = b->radius;
    pb.rho = farthest(b, mb->c);
    double spin = fabs(ma->w) * pa.rho + fabs(mb->w) * pb.rho;

    double t = 0;
    c2d_vec2 before = v2(0, 0); /* the normal one step before, where the gap was wider */
    for (int step = 0;; step++) {
        place(a, ma, t, &pa);
        place(b, mb, t, &pb);
        c2d_vec2 n;
        int corner;
        double d = measure(&pa, &pb, hv, hn, bvert, avert, &n, &corner);
        /* Two sharp corners a tolerance apart give the direction between them to a few digits only;
         * the step before saw them from farther, along the way they closed in. */
        c2d_vec2 hit_n = corner && step > 0 ? before : n;
        before = n;
        double mu = v2_dot(n, v2_sub(ma->v, mb->v)) + spin;
        double target, aim;
        if (d <= tol) {
            /* The rate at which the surfaces close at the contact point (negative when they part). */
            c2d_vec2 p = contact_point(&pa, &pb, n);
            double closing = v2_dot(n, v2_sub(c2d_rigid_velocity_at(ma, t, p), c2d_rigid_velocity_at(mb, t, p)));
            /* Relative to the speeds it is a difference of, not to the rate of approach alone: two
             * shapes moving together (a character riding a platform that turns by a hair) have a
             * rate of rounding only, a few ulps of their velocity, which the turn's part of mu, tiny,
             * would call closing. */
            double rate = c2d_max_num(mu, 0) + v2_len(ma->v) + v2_len(mb->v);
            if (closing > C2D_SWEEP_DIR_TOL * rate || step >= TURN_MAX_STEPS) {
                *found = 1;
                hit->t = t;
                hit->normal = hit_n;
                hit->point = p;
                hit->distance = d;
                break;
            }
            /* Touching but parting or sliding: go on while the surfaces stay within one more tol. */
            target = d - tol;
            aim = d - 0.5 * tol;
        } else {
            if (step >= TURN_MAX_STEPS) {
                *found = 1;
                hit->t = t;
                hit->normal = n;
                hit->point = contact_point(&pa, &pb, n);
                hit->distance = d;
                break;
            }
            target = 0.25 * tol;
            aim = 0.5 * tol;
        }
        if (!(mu > 0))
            break; /* nothing on either shape approaches the other along n: they never meet */
        double room = tmax - t;
        double tau = (d - target) / mu;
        if (tau < room) {
            /* The face bounds (3) first: a face turning with its shape follows a contact closely. */
            double proven = face_step(&pa, ma, &pb, mb, t, target, aim, room, scratch);
            if (proven > tau)
                tau = proven;
            if (tau < room) {
                proven = face_step(&pb, mb, &pa, ma, t, target, aim, room, scratch);
                if (proven > tau)
                    tau = proven;
            }
            if (tau < room) {
                proven = proven_step(&pa, ma, &pb, mb, t, n, target, aim, room, scratch);
                if (proven > tau)
                    tau = proven;
            }
        }
        if (!(tau < room))
            break; /* apart until tmax */
        double next = t + tau;
        if (!(next > t))
            next = nextafter(t, INFINITY);
        t = next;
    }
    free(heap);
    return C2D_OK;
}

/* sin x and cos x for |x| <= 1 from their Taylor series to x^17 and x^18, whose tails are below 1e-17
 * there: within 2e-16 (not c2d_sincos's bits, which nothing here needs), at a fraction of its cost. */
static void small_sincos(double x, double *s, double *c)
{
    double z = x * x;
    *s = x * (1 + z * (-1.0 / 6 + z * (1.0 / 120 + z * (-1.0 / 5040 + z * (1.0 / 362880 + z * (-1.0 / 39916800 +
         z * (1.0 / 6227020800.0 + z * (-1.0 / 1307674368000.0 + z * (1.0 / 355687428096000.0)))))))));
    *c = 1 + z * (-0.5 + z * (1.0 / 24 + z * (-1.0 / 720 + z * (1.0 / 40320 + z * (-1.0 / 3628800 +
         z * (1.0 / 479001600 + z * (-1.0 / 87178291200.0 + z * (1.0 / 20922789888000.0 +
         z * (-1.0 / 6402373705728000.0)))))))));
}

c2d_aabb c2d_core_turn_box(const c2d_core *k, c2d_vec2 c, double angle)
{
    c2d_aabb b;
    double lox = INFINITY, loy = INFINITY, hix = -INFINITY, hiy = -INFINITY;
    if (!(fabs(angle) <= 3.0)) {
        for (int j = 0; j < k->count; j++) {
            double rho = v2_len(v2_sub(k->v[j], c));
            hix = c2d_maxd(hix, rho);
        }
        lox = loy = -hix;
        hiy = hix;
    } else {
        double s, cs;
        if (fabs(angle) <= 1.0)
            small_sincos(angle, &s, &cs); /* a game's step: a flipper at 30 rad/s turns 0.5 in 1/60 s */
        else
            c2d_sincos(angle, &s, &cs);
        /* Below a half-turn, a vertex's arc from r0 to r1 crosses the line y = 0 at most once: when r0.y
         * and r1.y differ in sign, and then on the side of x that r0.x + r1.x is on (the crossing lies
         * less than a quarter-turn from either end); the line x = 0 likewise. Where rounding decides
         * near an axis, the arc's extreme there is an end to a hair. */
        for (int j = 0; j < k->count; j++) {
            c2d_vec2 r0 = v2_sub(k->v[j], c), r1 = v2(cs * r0.x - s * r0.y, s * r0.x + cs * r0.y);
            lox = c2d_mind(lox, c2d_mind(r0.x, r1.x));
            hix = c2d_maxd(hix, c2d_maxd(r0.x, r1.x));
            loy = c2d_mind(loy, c2d_mind(r0.y, r1.y));
            hiy = c2d_maxd(hiy, c2d_maxd(r0.y, r1.y));
            int on_x = r0.y * r1.y <= 0, on_y = r0.x * r1.x <= 0;
            if (on_x || on_y) {
                double rho = v2_len(r0);
                if (on_x && r0.x + r1.x > 0)
                    hix = c2d_maxd(hix, rho);
                else if (on_x)
                    lox = c2d_mind(lox, -rho);
                if (on_y && r0.y + r1.y > 0)
                    hiy = c2d_maxd(hiy, rho);
                else if (on_y)
                    loy = c2d_mind(loy, -rho);
            }
        }
    }
    b.min = v2(c.x + lox - k->radius, c.y + loy - k->radius);
    b.max = v2(c.x + hix + k->radius, c.y + hiy + k->radius);
    return b;
}

double c2d_rigid_sweep_tolerance(const c2d_shape *a, const c2d_rigid *ma, const c2d_shape *b, const c2d_rigid *mb)
{
    /* Everything stays within the pivot's path swollen by the shape's reach from it. */
    double scale = 0;
    const c2d_shape *s[2] = {a, b};
    const c2d_rigid *m[2] = {ma, mb};
    for (int k = 0; k < 2; k++) {
        c2d_aabb box = c2d_shape_aabb(s[k]);
        double reach = v2_len(v2_sub(box.max, box.min)) + v2_len(v2_sub(m[k]->c, box.min));
        double far = c2d_max_num(c2d_aabb_magnitude(box), v2_len(m[k]->c) + v2_len(m[k]->v) + reach);
        scale = c2d_max_num(scale, far);
    }
    return c2d_sweep_tolerance(scale);
}

c2d_status c2d_convex_sweep_rigid(const c2d_shape *a, const c2d_rigid *ma, const c2d_shape *b, const c2d_rigid *mb,
                                  double tol, c2d_toi *out)
{
    c2d_vec2 buf[2 * TURN_STACK];
    c2d_vec2 *mem = buf;
    void *heap = NULL;
    int cap = a->count + b->count;
    if (cap > TURN_STACK) {
        heap = malloc((size_t)cap * 2 * sizeof(c2d_vec2));
        if (!heap)
            return C2D_ERR_NO_MEMORY;
        mem = (c2d_vec2 *)heap;
    }
    c2d_core ka = c2d_world_core(a, mem, mem + a->count);
    c2d_core kb = c2d_world_core(b, mem + 2 * a->count, mem + 2 * a->count + b->count);
    int found;
    c2d_rigid_hit h;
    c2d_status st = c2d_core_sweep_rigid(&ka, ma, &kb, mb, 1.0, tol, &found, &h);
    free(heap);
    if (st != C2D_OK)
        return st;
    c2d_toi r;
    memset(&r, 0, sizeof r);
    if (found) {
        r.state = C2D_TOI_HIT;
        r.t = h.t;
        r.normal = h.normal;
        r.point = h.point;
    } else {
        r.state = C2D_TOI_NONE;
        r.t = 1;
    }
    *out = r;
    return C2D_OK;
}

/* The world motion of a shape standing where it is now. */
c2d_status c2d_rigid_of_motion(const c2d_shape *s, const c2d_motion *m, c2d_rigid *out)
{
    *out = c2d_rigid_still();
    out->c = s->pos;
    if (!m)
        return C2D_OK;
    c2d_status st = c2d_check_vec(m->velocity);
    if (st == C2D_OK)
        st = c2d_check_number(m->angular_velocity);
    if (st == C2D_OK)
        st = c2d_check_vec(m->pivot);
    c2d_vec2 c = c2d_shape_frame_point(s, m->pivot);
    if (st == C2D_OK)
        st = c2d_check_vec(c);
    if (st != C2D_OK)
        return st;
    out->c = c;
    out->v = m->velocity;
    out->w = m->angular_velocity;
    return C2D_OK;
}
