/* ops_compound.c - chains and concave polygons (ops 44-47): made from fuzzed rings with their statuses
 * predicted by the exact oracle and their parts checked against the rings, points and rays near those
 * rings, and a compound placed at the edge of the coordinate range and back. */
#include "fz.h"

static int fz_rings_narrow(const c2d_vec2 *const *ring, const int *cnt, int rings, c2d_vec2 pos);

/* ---- chains and concave polygons: construction ------------------------------------------------- */

/* A ring of points from the input (at most max, at least min_n unless raw), around c at scale r:
 * raw points, a star (radii and angles jittered), a regular polygon, points of a small lattice (exact
 * when r is a power of two: touching points, collinear runs and crossings), a mountain range on a flat
 * bar, a histogram (rectilinear), a star with spikes down to 2^-31 of its radius (slivers), or a copy
 * of a slot's vertices (exactly shared points). Then either winding, and up to three mutations: a
 * point repeated, an edge's midpoint inserted (collinear when exact), two points swapped (a crossing),
 * a point moved onto another point or onto an edge's midpoint (touching). Returns the count. */
static int fz_gen_ring(fz_state *st, c2d_vec2 *out, int max, int min_n, c2d_vec2 c, double r)
{
    uint8_t g = fz_byte(st), w = fz_byte(st);
    int n = min_n + (g >> 3) % (max - min_n + 1), kind = g & 7;
    const double two_pi = 6.283185307179586;
    if (fz_trace)
        fprintf(stderr, " {ring kind %d n %d", kind, n);
    switch (kind) {
    case 0:
        for (int i = 0; i < n; i++)
            out[i] = fz_vec(st);
        break;
    case 1:
    case 2:
    case 6:
        for (int i = 0; i < n; i++) {
            uint8_t b = kind == 2 ? 0 : fz_byte(st);
            double f = kind == 1 ? 0.25 + (b & 15) / 20.0 : kind == 6 ? ldexp(1.0, -(b & 31)) : 1.0;
            double t = two_pi * (i + (kind == 1 ? (b >> 4) / 16.0 : 0.0)) / n;
            out[i] = fz_v(c.x + r * f * cos(t), c.y + r * f * sin(t));
        }
        break;
    case 3:
        for (int i = 0; i < n; i++) {
            uint8_t b = fz_byte(st);
            out[i] = fz_v(c.x + r * ((b & 7) - 3), c.y + r * (((b >> 3) & 7) - 3));
        }
        break;
    case 4: { /* a flat bottom and a mountain range above it (heights 0 touch the bottom) */
        int cols = n - 2;
        out[0] = fz_v(c.x, c.y);
        out[1] = fz_v(c.x + r * (cols - 1), c.y);
        for (int i = 0; i < cols; i++)
            out[2 + i] = fz_v(c.x + r * (cols - 1 - i), c.y + r * ((fz_byte(st) & 15) / 4.0));
        break;
    }
    case 5: { /* a histogram: columns of heights 0 (touching the bottom) to 7 */
        int cols = (n - 2) / 2;
        if (cols < 1)
            cols = 1;
        out[0] = fz_v(c.x, c.y);
        out[1] = fz_v(c.x + r * cols, c.y);
        for (int i = cols - 1, k = 2; i >= 0; i--) {
            double h = fz_byte(st) & 7;
            out[k++] = fz_v(c.x + r * (i + 1), c.y + r * h);
            out[k++] = fz_v(c.x + r * i, c.y + r * h);
        }
        n = 2 + 2 * cols;
        break;
    }
    default: { /* a slot's vertices as placed */
        const c2d_shape *s = st->slot[fz_byte(st) % FZ_SLOTS];
        c2d_vec2 v[FZ_MAX_VERTS];
        int m = 0;
        if (!s || c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &m) != C2D_OK)
            m = 0;
        n = m < max ? m : max;
        for (int i = 0; i < n; i++)
            out[i] = v[i];
        break;
    }
    }
    if (w & 1)
        for (int i = 0, j = n - 1; i < j; i++, j--) {
            c2d_vec2 t = out[i];
            out[i] = out[j];
            out[j] = t;
        }
    for (int k = 0; k < ((w >> 1) & 3) && n > 0; k++) {
        uint8_t op = fz_byte(st), a = fz_byte(st);
        int i = a % n, j = (a >> 4) % n;
        c2d_vec2 mid_j = fz_v(0.5 * (out[j].x + out[(j + 1) % n].x), 0.5 * (out[j].y + out[(j + 1) % n].y));
        switch (op % 5) {
        case 0: /* repeat point i */
        case 1: /* insert the midpoint of edge i */
            if (n < max) {
                c2d_vec2 ins = op % 5 == 0 ? out[i]
                                          : fz_v(0.5 * (out[i].x + out[(i + 1) % n].x),
                                                 0.5 * (out[i].y + out[(i + 1) % n].y));
                for (int q = n; q > i + 1; q--)
                    out[q] = out[q - 1];
                out[i + 1] = ins;
                n++;
            }
            break;
        case 2: { /* swap points i and i + 1 */
            c2d_vec2 t = out[i];
            out[i] = out[(i + 1) % n];
            out[(i + 1) % n] = t;
            break;
        }
        case 3:
            out[i] = out[j];
            break;
        default:
            out[i] = mid_j;
            break;
        }
    }
    if (fz_trace) {
        fprintf(stderr, ":");
        for (int i = 0; i < n; i++)
            fprintf(stderr, " (%.17g, %.17g)", out[i].x, out[i].y);
        fprintf(stderr, "}");
    }
    return n;
}

#define FZ_BIT(s) (1u << (unsigned)(s))

/* The statuses of a coordinate check over n points (first x, then y): NOT_FINITE and RANGE bits. */
static unsigned fz_points_errors(const c2d_vec2 *p, int n)
{
    unsigned e = 0;
    for (int i = 0; i < n; i++) {
        c2d_status a = fz_number_status(p[i].x), b = fz_number_status(p[i].y);
        if (a != C2D_OK)
            e |= FZ_BIT(a);
        if (b != C2D_OK)
            e |= FZ_BIT(b);
    }
    return e;
}

/* The geometric statuses of a concave polygon whose arguments are all valid, by the harness's own
 * exact O(n^2) test of the header's rules on the rings: DEGENERATE for a ring of fewer than 3 distinct
 * points or all on one line; NOT_SIMPLE for a ring that crosses, touches or doubles back along itself,
 * a hole that meets the outline or is not inside it, two holes that meet or one inside another. When a
 * ring is degenerate and the others break a rule too, either status is right (which one a library
 * reports depends on the order it looks at the rings in). None: OK (or NO_MEMORY). */
static unsigned fz_concave_expect(const c2d_vec2 *const *ring, const int *cnt, int rings)
{
    c2d_vec2 d[1 + FZ_HOLES][FZ_RING_PTS];
    int k[1 + FZ_HOLES], degen[1 + FZ_HOLES], deg = 0, viol = 0;
    for (int r = 0; r < rings; r++) {
        k[r] = fz_ring_dedupe(ring[r], cnt[r], d[r]);
        degen[r] = fz_ring_degenerate(d[r], k[r]);
        deg |= degen[r];
        if (!degen[r] && !fz_ring_simple(d[r], k[r]))
            viol = 1;
    }
    for (int h = 1; h < rings && !degen[0] && !viol; h++) {
        if (degen[h])
            continue;
        if (fz_rings_meet(d[0], k[0], d[h], k[h]) || !fz_ring_parity(d[0], k[0], d[h][0]))
            viol = 1;
        for (int g = 1; g < h && !viol; g++)
            if (!degen[g] && (fz_rings_meet(d[g], k[g], d[h], k[h]) || fz_ring_parity(d[g], k[g], d[h][0]) ||
                              fz_ring_parity(d[h], k[h], d[g][0])))
                viol = 1;
    }
    if (deg)
        return FZ_BIT(C2D_ERR_DEGENERATE) | (viol ? FZ_BIT(C2D_ERR_NOT_SIMPLE) : 0);
    return viol ? FZ_BIT(C2D_ERR_NOT_SIMPLE) : FZ_BIT(C2D_OK) | FZ_BIT(C2D_ERR_NO_MEMORY);
}

/* Whether the rings are so thin that measured from their centroid, where c2d_concave_new keeps its
 * parts, every point is within rounding of one line: each point within 8 ulps of twice the scene's
 * size (the reach of a point from a centroid inside) of the line through the two points farthest
 * apart. Then every part may round flat and be left out, and the header gives C2D_ERR_DEGENERATE.
 * (Until issue 22 any three points within 1e-12 of the scene of a line let c2d_concave_new say
 * DEGENERATE: its parts went through c2d_polygon_new's unstated area tolerance, and parts measured
 * from a centroid near one end of a ring that spans the range were refused as out of range.) */
int fz_rings_flat(const c2d_vec2 *const *ring, const int *cnt, int rings)
{
    c2d_vec2 p[1 + FZ_HOLES * FZ_RING_PTS + FZ_RING_PTS];
    int n = 0, fi = 0, fj = 0;
    double mag = 0, far = -1;
    for (int r = 0; r < rings; r++)
        for (int i = 0; i < cnt[r] && n < (int)(sizeof p / sizeof p[0]); i++) {
            p[n++] = ring[r][i];
            mag = fmax(mag, fz_vec_mag(ring[r][i]));
        }
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++) {
            double l = fz_len(fz_sub(p[j], p[i]));
            if (l > far)
                far = l, fi = i, fj = j;
        }
    if (!(far > 0))
        return 1;
    c2d_vec2 u = fz_sub(p[fj], p[fi]);
    for (int k = 0; k < n; k++) {
        c2d_vec2 w = fz_sub(p[k], p[fi]);
        if (fabs(u.x * w.y - u.y * w.x) / far > 8 * DBL_EPSILON * 2 * mag)
            return 0;
    }
    return 1;
}

/* Twice the signed area of a ring and its first moment (relative to its first point). */
static double fz_ring_area2(const c2d_vec2 *p, int n, c2d_vec2 *moment)
{
    double a2 = 0, mx = 0, my = 0;
    for (int i = 0; i < n; i++) {
        c2d_vec2 a = fz_v(p[i].x - p[0].x, p[i].y - p[0].y);
        c2d_vec2 b = fz_v(p[(i + 1) % n].x - p[0].x, p[(i + 1) % n].y - p[0].y);
        double cr = a.x * b.y - a.y * b.x;
        a2 += cr;
        mx += (a.x + b.x) * cr;
        my += (a.y + b.y) * cr;
    }
    if (moment)
        *moment = fz_v(mx, my); /* 6 * area * (centroid - p[0]) */
    return a2;
}

static double fz_ring_perimeter(const c2d_vec2 *p, int n, int closed)
{
    double l = 0;
    for (int i = 0; i + (closed ? 0 : 1) < n; i++)
        l += hypot(p[(i + 1) % n].x - p[i].x, p[(i + 1) % n].y - p[i].y);
    return l;
}

/* A part of a concave polygon as placed: at least 3 vertices, counter-clockwise and convex (every
 * turn to the left, up to the rounding of each placed vertex, tol, or exactly; the turns adding up to
 * one full turn), and every vertex one of the points the polygon was made from (parts make no new
 * points). A part of subnormal points (valid since issue 22: a ring is refused only when exactly
 * degenerate) has products that underflow to 0, so its turns are measured on its edges scaled up by
 * a power of two, which changes no angle. */
static void fz_check_part_convex(const c2d_vec2 *v, int n, int k, double tol, const c2d_vec2 *const *ring,
                                 const int *cnt, int rings)
{
    FZ_CHECK(n >= 3, "part %d has %d vertices", k, n);
    double turning = 0, span = 0;
    int flat = 1; /* every turn within the rounding of the placed vertices: a sliver at its position */
    for (int i = 0; i < n; i++)
        span = fmax(span, fz_vec_mag(fz_sub(v[(i + 1) % n], v[i])));
    int up = span > 0 && span < 1e-150 ? -ilogb(span) : 0;
    for (int i = 0; i < n; i++) {
        c2d_vec2 a = v[(i + n - 1) % n], b = v[i], c = v[(i + 1) % n];
        c2d_vec2 e1 = fz_sub(b, a), e2 = fz_sub(c, b);
        double cr = e1.x * e2.y - e1.y * e2.x;
        FZ_CHECK(cr > -2 * tol * (fz_len(e1) + fz_len(e2)) || fz_orient(a, b, c) > 0,
                 "part %d turns right at vertex %d (%.17g, %.17g): cross %.17g", k, i, b.x, b.y, cr);
        flat = flat && fabs(cr) <= 2 * tol * (fz_len(e1) + fz_len(e2));
        e1 = fz_v(ldexp(e1.x, up), ldexp(e1.y, up));
        e2 = fz_v(ldexp(e2.x, up), ldexp(e2.y, up));
        turning += atan2(e1.x * e2.y - e1.y * e2.x, e1.x * e2.x + e1.y * e2.y);
        double best = INFINITY;
        for (int r = 0; r < rings; r++)
            for (int j = 0; j < cnt[r]; j++)
                best = fmin(best, fz_len(fz_sub(b, ring[r][j])));
        FZ_CHECK(best <= tol, "part %d vertex %d (%.17g, %.17g) is %.17g from every input point", k, i, b.x, b.y,
                 best);
    }
    /* A part thinner than the rounding of its placed vertices (valid since issue 22: only an exactly
     * flat ring is refused) may come out turned the other way once placed; every turn is then within
     * the tolerance above, and its orientation is the rounding's. */
    FZ_CHECK(flat || fabs(turning - 6.283185307179586) < 0.5, "part %d turns %.17g in all, not once round", k,
             turning);
}

/* Whether the vertices v[0 .. m) are the deduplicated ring d[0 .. k), counter-clockwise from some
 * point on, with any of its straight-run middles (mid) left out: the header drops them, and keeping
 * them leaves the same outline. Matching is within tol (the vertices are placed copies). */
static int fz_outline_matches(const c2d_vec2 *v, int m, const c2d_vec2 *d, const unsigned char *mid, int k,
                              double tol)
{
    static unsigned char reach[FZ_MAX_VERTS + 1][FZ_RING_PTS + 1];
    if (m > FZ_MAX_VERTS || k > FZ_RING_PTS)
        return 0;
    for (int s = 0; s < k; s++) {
        if (fz_len(fz_sub(v[0], d[s])) > tol)
            continue;
        memset(reach, 0, sizeof reach);
        reach[0][0] = 1;
        for (int j = 0; j < k; j++)
            for (int i = 0; i <= m; i++) {
                if (!reach[i][j])
                    continue;
                int at = (s + j) % k;
                if (mid[at])
                    reach[i][j + 1] = 1;
                if (i < m && fz_len(fz_sub(v[i], d[at])) <= tol)
                    reach[i + 1][j + 1] = 1;
            }
        if (reach[m][k])
            return 1;
    }
    return 0;
}

/* What c2d_concave_new promises of a new concave polygon s made from the rings (all valid, the
 * shape still where it was made: angle 0): parts convex, counter-clockwise, made of input points,
 * with areas adding up to the region's (outline minus holes); the outline as its vertices; the
 * centroid of the area as its position; every input point on its boundary. */
static void fz_check_concave_new(const c2d_shape *s, const c2d_vec2 *const *ring, const int *cnt, int rings)
{
    double mag = 1;
    for (int r = 0; r < rings; r++)
        for (int i = 0; i < cnt[r]; i++)
            mag = fmax(mag, fz_vec_mag(ring[r][i]));
    double scale = fmax(mag, fz_shape_scale(s)), tol = FZ_REL_TOL * scale;
    int parts = fz_part_count(s);
    FZ_CHECK(c2d_shape_get_type(s) == C2D_SHAPE_CONCAVE && parts >= 1, "concave: type %d, %d parts",
             (int)c2d_shape_get_type(s), parts);
    double sum = 0;
    for (int k = 0; k < parts; k++) {
        c2d_vec2 v[FZ_MAX_VERTS];
        int n = 0;
        fz_part(s, k, v, FZ_MAX_VERTS, &n);
        fz_check_part_convex(v, n, k, tol, ring, cnt, rings);
        sum += 0.5 * fz_ring_area2(v, n, NULL);
    }
    /* The region: the outline's area less the holes' (each ring either way round), its moment too. */
    double area = 0, perimeter = 0;
    c2d_vec2 moment = fz_v(0, 0), o = ring[0][0];
    for (int r = 0; r < rings; r++) {
        c2d_vec2 mo;
        double a2 = fz_ring_area2(ring[r], cnt[r], &mo), sign = (r == 0) == (a2 > 0) ? 1 : -1;
        area += sign * 0.5 * a2;
        /* the ring's moment about o: 6 A (c - p0) + 6 A (p0 - o) */
        moment.x += sign * (mo.x + 3 * a2 * (ring[r][0].x - o.x));
        moment.y += sign * (mo.y + 3 * a2 * (ring[r][0].y - o.y));
        perimeter += fz_ring_perimeter(ring[r], cnt[r], 1);
    }
    /* Each part's vertices stand within the rounding of placing it (1e-9 of the scene here) of the
     * input points, so the areas agree to that times the boundary's length, and 1e-9 relatively. */
    double atol = 1e-9 * fabs(area) + 2 * tol * perimeter;
    FZ_CHECK(fabs(sum - area) <= atol, "parts' areas add up to %.17g, the region's is %.17g (tol %g)", sum, area,
             atol);
    /* The centroid, which moves by the extent times the area's error over the area. */
    c2d_vec2 pos;
    c2d_shape_get_position(s, &pos);
    c2d_aabb box;
    c2d_shape_get_aabb(s, &box);
    double extent = fmax(box.max.x - box.min.x, box.max.y - box.min.y);
    if (area > 0) {
        c2d_vec2 want = fz_v(o.x + moment.x / (6 * area), o.y + moment.y / (6 * area));
        double ctol = tol + extent * atol / area;
        FZ_CHECK(fz_len(fz_sub(pos, want)) <= ctol, "position (%.17g, %.17g), the centroid is (%.17g, %.17g)", pos.x,
                 pos.y, want.x, want.y);
    }
    /* The vertices: the outline without repeats, counter-clockwise (decided exactly, at the
     * lowest-leftmost point that is no straight-run middle), with or without its middles. */
    c2d_vec2 d[FZ_RING_PTS], v[FZ_MAX_VERTS];
    unsigned char mid[FZ_RING_PTS];
    int k = fz_ring_dedupe(ring[0], cnt[0], d), m = 0;
    FZ_CHECK(fz_ring_middles(d, k, mid), "an accepted outline doubles back");
    int low = -1;
    for (int i = 0; i < k; i++)
        if (!mid[i] && (low < 0 || d[i].x < d[low].x || (d[i].x == d[low].x && d[i].y < d[low].y)))
            low = i;
    int prev = low, next = low;
    do
        prev = (prev + k - 1) % k;
    while (mid[prev]);
    do
        next = (next + 1) % k;
    while (mid[next]);
    if (fz_orient(d[prev], d[low], d[next]) < 0)
        for (int i = 0, j = k - 1; i < j; i++, j--) {
            c2d_vec2 t = d[i];
            unsigned char u = mid[i];
            d[i] = d[j];
            d[j] = t;
            mid[i] = mid[j];
            mid[j] = u;
        }
    c2d_shape_get_vertices(s, v, FZ_MAX_VERTS, &m);
    FZ_CHECK(fz_outline_matches(v, m, d, mid, k, tol),
             "the %d vertices are not the outline of %d points counter-clockwise (first (%.17g, %.17g))", m, k,
             v[0].x, v[0].y);
    c2d_vec2 pos0;
    c2d_shape_get_position(s, &pos0);
    for (int r = 0; r < rings && (fz_strict_misc || !fz_rings_narrow(ring, cnt, rings, pos0)); r++)
        for (int i = 0; i < cnt[r]; i++) {
            double sd = fz_sd(s, ring[r][i]);
            FZ_CHECK(fabs(sd) <= tol, "input point %d of ring %d (%.17g, %.17g) is %.17g from the boundary", i, r,
                     ring[r][i].x, ring[r][i].y, sd);
        }
}

/* Whether a concave polygon's rings come closer to themselves than the tolerance up to which its parts'
 * edges join (1e-9 of its size; 4e-9 here, for the rounding): two edges that are not neighbours, or
 * neighbours whose far ends are that close to the other (a spike or notch that thin). Its parts'
 * edges there are taken for joints (known, FZ_STRICT_MISC). */
static int fz_rings_narrow(const c2d_vec2 *const *ring, const int *cnt, int rings, c2d_vec2 pos)
{
    c2d_vec2 d[1 + FZ_HOLES][FZ_RING_PTS];
    int k[1 + FZ_HOLES];
    double ext = 0;
    for (int r = 0; r < rings; r++) {
        k[r] = fz_ring_dedupe(ring[r], cnt[r], d[r]);
        for (int i = 0; i < k[r]; i++)
            ext = fmax(ext, fz_vec_mag(fz_sub(d[r][i], pos)));
    }
    double tol = 4e-9 * (1 + ext);
    for (int r = 0; r < rings; r++)
        for (int i = 0; i < k[r]; i++) {
            c2d_vec2 a = d[r][i], b = d[r][(i + 1) % k[r]];
            for (int q = r; q < rings; q++)
                for (int j = q == r ? i + 1 : 0; j < k[q]; j++) {
                    c2d_vec2 c = d[q][j], e = d[q][(j + 1) % k[q]];
                    double m;
                    if (q == r && j == i + 1) /* neighbours at b: a's and e's distance to the other edge */
                        m = fmin(fz_len(fz_sub(a, fz_seg_closest(c, e, a))), fz_len(fz_sub(e, fz_seg_closest(a, b, e))));
                    else if (q == r && i == 0 && j == k[r] - 1) /* neighbours at a */
                        m = fmin(fz_len(fz_sub(b, fz_seg_closest(c, e, b))), fz_len(fz_sub(c, fz_seg_closest(a, b, c))));
                    else
                        m = fmin(fmin(fz_len(fz_sub(a, fz_seg_closest(c, e, a))), fz_len(fz_sub(b, fz_seg_closest(c, e, b)))),
                                 fmin(fz_len(fz_sub(c, fz_seg_closest(a, b, c))), fz_len(fz_sub(e, fz_seg_closest(a, b, e)))));
                    if (m < tol)
                        return 1;
                }
        }
    return 0;
}

/* Stores a compound's model with its slot (after fz_created put it there). */
static void fz_model_set(fz_state *st, int slot, int kind, int closed, int one_sided, const c2d_vec2 *const *ring,
                         const int *cnt, int rings)
{
    fz_model *m = &st->model[slot];
    memset(m, 0, sizeof *m);
    m->kind = kind;
    m->closed = closed;
    m->one_sided = one_sided;
    m->rings = rings;
    for (int r = 0; r < rings; r++) {
        m->cnt[r] = cnt[r];
        memcpy(m->p[r], ring[r], (size_t)cnt[r] * sizeof ring[r][0]);
    }
    c2d_shape_get_position(st->slot[slot], &m->pos0);
    m->narrow = kind == C2D_SHAPE_CONCAVE && fz_rings_narrow(ring, cnt, rings, m->pos0);
}

/* c2d_concave_new from the input: an outline (fz_gen_ring) with 0 to 3 holes inside it, outside it,
 * centred on one of its points, or touching it at one, and the bad arguments (NULL outline or hole
 * array or hole pointer, counts out of range or too many points in all). The status must be one the
 * header names for what is wrong (fz_concave_expect for the geometry); rejected, *out is untouched;
 * accepted, fz_check_concave_new, and the slot keeps the rings as its model. */
void op_concave(fz_state *st)
{
    int slot = fz_slot(st);
    uint8_t mode = fz_byte(st);
    c2d_vec2 c = fz_vec(st);
    double r = fz_number(st);
    static c2d_vec2 outline[FZ_RING_PTS], holes[FZ_HOLES][FZ_RING_PTS];
    memset(holes, 0, sizeof holes);
    int n = fz_gen_ring(st, outline, FZ_RING_PTS, 3, c, r);
    int hc = (mode >> 3) & 3, hn[FZ_HOLES] = {0, 0, 0};
    static const double inside[4][2] = {{0, 0}, {0.35, 0}, {-0.35, 0.2}, {0, -0.35}};
    for (int h = 0; h < hc; h++) {
        uint8_t hp = fz_byte(st), j = fz_byte(st);
        if (n == 0) /* a copy of an empty slot: nothing to place the hole by */
            outline[0] = c;
        int nn = n > 0 ? n : 1;
        c2d_vec2 at = c, v = outline[j % nn];
        double hr = r * 0.15 * (1 + ((hp >> 4) & 3));
        switch (hp & 3) {
        case 0:
            at = fz_v(c.x + r * inside[(hp >> 2) & 3][0], c.y + r * inside[(hp >> 2) & 3][1]);
            break;
        case 1:
            at = fz_v(c.x + 4 * r, c.y);
            break;
        case 2:
            at = v;
            break;
        default:
            at = fz_v(0.5 * (v.x + outline[(j + 1) % nn].x), 0.5 * (v.y + outline[(j + 1) % nn].y));
            break;
        }
        hn[h] = fz_gen_ring(st, holes[h], FZ_HOLE_PTS, 3, at, hr);
        if ((hp & 0x40) && hn[h] > 0)
            holes[h][0] = outline[(j >> 4) % nn]; /* touching the outline at one of its points */
    }
    /* The arguments as passed, and what is wrong with them. */
    const c2d_vec2 *ptrs[FZ_HOLES] = {holes[0], holes[1], holes[2]};
    int counts[FZ_HOLES] = {hn[0], hn[1], hn[2]};
    const c2d_vec2 *pass_outline = outline;
    const c2d_vec2 *const *pass_holes = hc > 0 ? ptrs : NULL;
    const int *pass_counts = hc > 0 ? counts : NULL;
    int pass_n = n, pass_hc = hc;
    uint8_t sub = (mode & 7) >= 4 ? fz_byte(st) : 0;
    switch (mode & 7) {
    case 4:
        pass_outline = NULL;
        break;
    case 5:
        pass_n = sub & 1 ? -1 : sub & 2 ? INT_MIN : C2D_MAX_POLYGON_POINTS + 1;
        break;
    case 6:
        if (pass_hc == 0)
            pass_hc = 1, pass_holes = ptrs, pass_counts = counts, counts[0] = 0;
        switch (sub % 4) {
        case 0: pass_hc = -1; break;
        case 1: pass_hc = C2D_MAX_POLYGON_POINTS + 1; break;
        case 2: pass_holes = NULL; break;
        default: pass_counts = NULL; break;
        }
        break;
    case 7:
        if (pass_hc == 0)
            pass_hc = 1, pass_holes = ptrs, pass_counts = counts, counts[0] = 0;
        switch (sub % 3) {
        case 0: ptrs[sub % pass_hc] = NULL; break;
        case 1: counts[sub % pass_hc] = -1; break;
        default: counts[sub % pass_hc] = C2D_MAX_POLYGON_POINTS - n + 1; break; /* too many in all */
        }
        break;
    default:
        break;
    }
    if (fz_trace)
        fprintf(stderr, " n %d holes %d variant %d", pass_n, pass_hc, mode & 7);
    unsigned pre = 0;
    if (!pass_outline)
        pre |= FZ_BIT(C2D_ERR_NULL);
    if (pass_hc < 0 || pass_hc > C2D_MAX_POLYGON_POINTS)
        pre |= FZ_BIT(C2D_ERR_RANGE);
    if (pass_hc > 0 && (!pass_holes || !pass_counts))
        pre |= FZ_BIT(C2D_ERR_NULL);
    int holes_known = pass_hc >= 0 && pass_hc <= FZ_HOLES;
    for (int h = 0; holes_known && pass_holes && h < pass_hc; h++)
        if (!pass_holes[h])
            pre |= FZ_BIT(C2D_ERR_NULL);
    if (pass_n < 0 || pass_n > C2D_MAX_POLYGON_POINTS)
        pre |= FZ_BIT(C2D_ERR_RANGE);
    long total = pass_n;
    for (int h = 0; holes_known && pass_counts && h < pass_hc; h++) {
        if (pass_counts[h] < 0)
            pre |= FZ_BIT(C2D_ERR_RANGE);
        total += pass_counts[h];
    }
    if (total > C2D_MAX_POLYGON_POINTS)
        pre |= FZ_BIT(C2D_ERR_RANGE);
    if (pass_outline && pass_n >= 0 && pass_n <= FZ_RING_PTS)
        pre |= fz_points_errors(pass_outline, pass_n);
    for (int h = 0; holes_known && pass_holes && pass_counts && h < pass_hc; h++)
        if (pass_holes[h] && pass_counts[h] >= 0 && pass_counts[h] <= FZ_RING_PTS)
            pre |= fz_points_errors(pass_holes[h], pass_counts[h]);
    const c2d_vec2 *rings[1 + FZ_HOLES] = {outline, holes[0], holes[1], holes[2]};
    int cnt[1 + FZ_HOLES] = {n, counts[0], counts[1], counts[2]};
    unsigned allowed = pre ? pre : fz_concave_expect(rings, cnt, 1 + pass_hc);
    c2d_shape *out = fz_sentinel();
    c2d_status s = c2d_concave_new(pass_outline, pass_n, pass_holes, pass_counts, pass_hc, &out);
    fz_check_status_concave(s);
    /* Valid rings within rounding of one line, measured from their centroid: every part may round
     * flat, and the header then gives DEGENERATE. */
    if (s == C2D_ERR_DEGENERATE && (allowed & FZ_BIT(C2D_OK)) && fz_rings_flat(rings, cnt, 1 + pass_hc))
        allowed |= FZ_BIT(C2D_ERR_DEGENERATE);
    if (fz_trace)
        fprintf(stderr, " -> status %d (allowed 0x%x)", (int)s, allowed);
    FZ_CHECK(allowed & FZ_BIT(s), "c2d_concave_new gave %d (%s); allowed: mask 0x%x", (int)s, c2d_status_string(s),
             allowed);
    if (mode & 0x20) {
        /* With out NULL: refused, with NULL or another of the statuses that fit. */
        c2d_status s2 = c2d_concave_new(pass_outline, pass_n, pass_holes, pass_counts, pass_hc, NULL);
        FZ_CHECK(s2 != C2D_OK && ((pre | FZ_BIT(C2D_ERR_NULL)) & FZ_BIT(s2)), "concave_new to NULL gave %d", (int)s2);
    }
    if (s != C2D_OK) {
        FZ_CHECK(out == fz_sentinel(), "rejected concave_new wrote *out");
        return;
    }
    fz_created(st, slot, s, 1, out, fz_sentinel());
    fz_check_concave_new(out, rings, cnt, 1 + pass_hc);
    fz_model_set(st, slot, C2D_SHAPE_CONCAVE, 1, 0, rings, cnt, 1 + pass_hc);
}

/* c2d_chain_new from the input: points from fz_gen_ring (1 to 24 of them, or none), open or closed,
 * one-sided or not, and the bad arguments (NULL points, counts and flags out of range). Accepted: the
 * repeated consecutive points dropped (and a closed chain's last point equal to its first), one
 * segment per pair of neighbours, the points as vertices in order, the centre of their box as its
 * position. */
void op_chain(fz_state *st)
{
    int slot = fz_slot(st);
    uint8_t mode = fz_byte(st);
    c2d_vec2 c = fz_vec(st);
    double r = fz_number(st);
    static c2d_vec2 pts[FZ_RING_PTS];
    int n = fz_gen_ring(st, pts, FZ_RING_PTS, 1, c, r);
    int flags = mode & 3, variant = (mode >> 2) & 7, pass_n = n;
    const c2d_vec2 *pass = pts;
    uint8_t sub = variant >= 5 ? fz_byte(st) : 0;
    if (variant == 5)
        pass = NULL;
    else if (variant == 6)
        pass_n = sub % 3 == 0 ? -1 : sub % 3 == 1 ? C2D_MAX_POLYGON_POINTS + 1 : (int)(sub % 3 == 2 ? (sub >> 2) % 3 : 0);
    else if (variant == 7) {
        static const int bad[4] = {4, 8, -1, INT_MIN};
        flags |= bad[sub % 4];
    }
    if (fz_trace)
        fprintf(stderr, " n %d flags %d variant %d", pass_n, flags, variant);
    unsigned pre = 0;
    if (!pass)
        pre |= FZ_BIT(C2D_ERR_NULL);
    if (pass_n < 0 || pass_n > C2D_MAX_POLYGON_POINTS || (flags & ~(C2D_CHAIN_CLOSED | C2D_CHAIN_ONE_SIDED)))
        pre |= FZ_BIT(C2D_ERR_RANGE);
    if (pass && pass_n >= 0 && pass_n <= FZ_RING_PTS)
        pre |= fz_points_errors(pass, pass_n);
    int closed = (flags & C2D_CHAIN_CLOSED) != 0, need = closed ? 3 : 2;
    c2d_vec2 d[FZ_RING_PTS];
    int m = 0, distinct = 0;
    for (int i = 0; pass && i < pass_n && pass_n <= FZ_RING_PTS; i++) {
        if (m == 0 || !fz_veq(pts[i], d[m - 1]))
            d[m++] = pts[i];
        int seen = 0;
        for (int j = 0; j < i && !seen; j++)
            seen = fz_veq(pts[j], pts[i]);
        distinct += !seen;
    }
    if (closed)
        while (m > 1 && fz_veq(d[m - 1], d[0]))
            m--;
    /* Fewer points left than a chain needs: DEGENERATE. The header says "distinct points", and a
     * closed chain such as A, B, A, B has 4 points left but 2 distinct ones: either answer is taken
     * there (the README's notes say why). */
    unsigned allowed = pre ? pre
                       : m < need ? FZ_BIT(C2D_ERR_DEGENERATE)
                       : distinct < need ? FZ_BIT(C2D_ERR_DEGENERATE) | FZ_BIT(C2D_OK)
                                         : FZ_BIT(C2D_OK) | FZ_BIT(C2D_ERR_NO_MEMORY);
    c2d_shape *out = fz_sentinel();
    c2d_status s = c2d_chain_new(pass, pass_n, flags, &out);
    fz_check_status(s);
    /* Two neighbours closer than 1e-12 of the scene: measured from the chain's position they may
     * round to one point, and the segment between them is refused as DEGENERATE (known,
     * FZ_STRICT_MISC). */
    if (s == C2D_ERR_DEGENERATE && (allowed & FZ_BIT(C2D_OK)) && !fz_strict_misc) {
        double mag = 1, gap = INFINITY;
        for (int i = 0; i < m; i++)
            mag = fmax(mag, fz_vec_mag(d[i]));
        for (int i = 0; i + (closed ? 0 : 1) < m; i++)
            gap = fmin(gap, fz_len(fz_sub(d[(i + 1) % m], d[i])));
        if (gap <= 1e-12 * mag)
            allowed |= FZ_BIT(C2D_ERR_DEGENERATE);
    }
    if (fz_trace)
        fprintf(stderr, " -> status %d (allowed 0x%x)", (int)s, allowed);
    FZ_CHECK(allowed & FZ_BIT(s), "c2d_chain_new gave %d (%s); allowed: mask 0x%x", (int)s, c2d_status_string(s),
             allowed);
    if (mode & 0x20) {
        c2d_status s2 = c2d_chain_new(pass, pass_n, flags, NULL);
        FZ_CHECK(s2 != C2D_OK && ((pre | FZ_BIT(C2D_ERR_NULL)) & FZ_BIT(s2)), "chain_new to NULL gave %d", (int)s2);
    }
    if (s != C2D_OK) {
        FZ_CHECK(out == fz_sentinel(), "rejected chain_new wrote *out");
        return;
    }
    fz_created(st, slot, s, 1, out, fz_sentinel());
    n = pass_n; /* accepted: the count passed is valid, and at most the points made */
    double mag = 1;
    for (int i = 0; i < n; i++)
        mag = fmax(mag, fz_vec_mag(pts[i]));
    double tol = FZ_REL_TOL * fmax(mag, fz_shape_scale(out));
    int parts = fz_part_count(out), count = 0;
    c2d_vec2 v[FZ_MAX_VERTS];
    c2d_shape_get_vertices(out, v, FZ_MAX_VERTS, &count);
    /* Points a rounding apart may become one once measured from the chain's position: fewer vertices,
     * each within the tolerance of a point, and the segments between them. */
    FZ_CHECK(c2d_shape_get_type(out) == C2D_SHAPE_CHAIN && count <= m && count >= (closed ? 3 : 2) &&
                 parts == (closed ? count : count - 1),
             "chain of %d points left (closed %d): type %d, %d vertices, %d parts", m, closed,
             (int)c2d_shape_get_type(out), count, parts);
    c2d_vec2 lo = d[0], hi = d[0];
    for (int i = 0; i < m; i++) {
        if (count == m)
            FZ_CHECK(fz_len(fz_sub(v[i], d[i])) <= tol, "chain vertex %d (%.17g, %.17g) is not point (%.17g, %.17g)",
                     i, v[i].x, v[i].y, d[i].x, d[i].y);
        lo = fz_v(fmin(lo.x, d[i].x), fmin(lo.y, d[i].y));
        hi = fz_v(fmax(hi.x, d[i].x), fmax(hi.y, d[i].y));
    }
    for (int k = 0; k < parts && count == m; k++) {
        c2d_vec2 pv[2];
        int pn = 0;
        fz_part(out, k, pv, 2, &pn);
        FZ_CHECK(pn == 2 && fz_len(fz_sub(pv[0], d[k])) <= tol && fz_len(fz_sub(pv[1], d[(k + 1) % m])) <= tol,
                 "chain part %d is not the segment from point %d to the next", k, k);
    }
    c2d_vec2 pos;
    c2d_shape_get_position(out, &pos);
    FZ_CHECK(fz_len(fz_sub(pos, fz_v(0.5 * lo.x + 0.5 * hi.x, 0.5 * lo.y + 0.5 * hi.y))) <= tol,
             "chain position (%.17g, %.17g) is not the centre of its points' box", pos.x, pos.y);
    const c2d_vec2 *rings[1] = {pts};
    int cnt[1] = {n};
    fz_model_set(st, slot, C2D_SHAPE_CHAIN, closed, (flags & C2D_CHAIN_ONE_SIDED) != 0, rings, cnt, 1);
}

/* ---- chains and concave polygons: points near their rings, and far away ---------------------- */

/* A ray from a point near one of a slot's rings (a vertex or a point of an edge, moved off it by a
 * fuzzed amount), then the point checks there and a ray from it: along a fuzzed direction, towards
 * another point of the rings, or along an edge. Only slots holding a chain or concave polygon. */
void op_ring_point(fz_state *st)
{
    int k = fz_slot(st);
    uint8_t mode = fz_byte(st), a = fz_byte(st), b = fz_byte(st);
    c2d_vec2 off = fz_vec(st), d = fz_vec(st);
    double f = fz_number(st), max_t = mode & 0x40 ? fz_number(st) : INFINITY;
    const fz_model *m = &st->model[k];
    c2d_shape *s = st->slot[k];
    if (!m->kind || !s)
        return;
    fz_rings w;
    fz_model_place(m, s, w);
    int r = a % m->rings;
    if (m->cnt[r] == 0)
        return;
    c2d_vec2 v0 = w[r][(a >> 2) % m->cnt[r]], v1 = w[r][((a >> 2) + 1) % m->cnt[r]];
    c2d_vec2 p = v0;
    double g = isfinite(f) ? fabs(fmod(f, 1.0)) : 0.5;
    switch (mode & 3) {
    case 0: /* off a vertex by off * 2^-e */
        p = fz_v(v0.x + ldexp(off.x, -(b & 63)), v0.y + ldexp(off.y, -(b & 63)));
        break;
    case 1: /* off a point of an edge, across it by f times 2^-e of its length */
        p = fz_v(v0.x + g * (v1.x - v0.x), v0.y + g * (v1.y - v0.y));
        p = fz_v(p.x - ldexp(f, -(b & 63)) * (v1.y - v0.y), p.y + ldexp(f, -(b & 63)) * (v1.x - v0.x));
        break;
    case 2: { /* between two points of the rings */
        int r2 = b % m->rings;
        if (m->cnt[r2] == 0)
            return;
        c2d_vec2 q = w[r2][(b >> 2) % m->cnt[r2]];
        p = fz_v(v0.x + g * (q.x - v0.x), v0.y + g * (q.y - v0.y));
        break;
    }
    default:
        p = fz_v(v0.x + off.x, v0.y + off.y);
        break;
    }
    if (!fz_ok_vec(p))
        return;
    if (fz_trace)
        fprintf(stderr, " at (%.17g, %.17g)", p.x, p.y);
    fz_check_model_point(st, k, p);
    switch ((mode >> 2) & 3) {
    case 0:
        break;
    case 1: { /* towards a point of the rings */
        int r2 = b % m->rings;
        if (m->cnt[r2] == 0)
            return;
        c2d_vec2 q = w[r2][(b >> 2) % m->cnt[r2]];
        d = fz_sub(q, p);
        break;
    }
    case 2: /* along the edge */
        d = fz_sub(v1, v0);
        break;
    default: /* towards the point of the edge */
        d = fz_sub(fz_v(v0.x + g * (v1.x - v0.x), v0.y + g * (v1.y - v0.y)), p);
        break;
    }
    if (!fz_ok_vec(d) || (d.x == 0 && d.y == 0) || isnan(max_t) || max_t < 0)
        return;
    c2d_ray_hit h;
    FZ_CHECK(c2d_raycast(s, p, d, max_t, &h) == C2D_OK, "ray from near the rings rejected");
    if (fz_trace)
        fprintf(stderr, " ray (%.17g, %.17g) -> hit %d t %.17g (%.17g, %.17g)", d.x, d.y, h.hit, h.t, h.point.x,
                h.point.y);
    fz_check_ray(s, p, d, max_t, &h);
    if (!h.hit)
        fz_check_miss(s, p, d, max_t);
    fz_check_model_ray(st, k, p, d, max_t, &h);
}

/* A compound placed near the edge of the coordinate range (1e15 less a fuzzed amount, or one ulp
 * past it: C2D_ERR_RANGE, changing nothing), checked there against another slot and at its own
 * vertices, then put back where it was: everything about it, parts included, as before. */
void op_far(fz_state *st)
{
    int k = fz_slot(st), other = fz_slot(st);
    uint8_t mode = fz_byte(st);
    double off = fz_number(st), angle = mode & 0x10 ? fz_number(st) : 0;
    c2d_shape *s = st->slot[k];
    if (!s)
        return;
    fz_snapshot before, after;
    fz_snapshot_take(s, &before);
    double base = mode & 1 ? 1.0000000000000002e15 : C2D_MAX_COORDINATE;
    double dx = isfinite(off) ? fabs(off) : 0.0;
    c2d_vec2 p = fz_v((mode & 2 ? -1 : 1) * (base - dx), mode & 4 ? (mode & 8 ? -1 : 1) * (base - dx) : before.pos.y);
    double a = mode & 0x10 ? angle : before.angle;
    if (fz_trace)
        fprintf(stderr, " -> (%.17g, %.17g) angle %.17g", p.x, p.y, a);
    c2d_status r = c2d_shape_set_transform(s, p, a);
    fz_check_status(r);
    c2d_status want = fz_vec_status(p);
    if (want == C2D_OK)
        want = fz_number_status(a);
    if (want != C2D_OK) {
        FZ_CHECK(r == want, "placing at (%.17g, %.17g) angle %.17g gave %d, not %d", p.x, p.y, a, (int)r, (int)want);
        fz_snapshot_take(s, &after);
        FZ_CHECK(fz_snapshot_equal(&before, &after), "a refused far placement changed the shape");
        return;
    }
    FZ_CHECK(r == C2D_OK, "placing at (%.17g, %.17g) angle %.17g gave %d", p.x, p.y, a, (int)r);
    fz_check_shape(s);
    if (other != k)
        fz_check_slots(st, k, other);
    fz_snapshot_take(s, &after);
    for (int i = 0; i < after.count && i < 4; i++)
        fz_check_model_point(st, k, after.v[i]);
    FZ_CHECK(c2d_shape_set_transform(s, before.pos, before.angle) == C2D_OK, "putting the shape back failed");
    fz_snapshot_take(s, &after);
    FZ_CHECK(fz_snapshot_equal(&before, &after), "placed far away and back, the shape is not as it was");
}
