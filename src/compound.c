/* compound.c - shapes made of convex parts: chains (polylines of segments, open or closed) and
 * concave polygons (simple outlines, optionally with holes, split into convex parts by decompose.c).
 *
 * A compound keeps its parts twice: placed with it in the world (moved whenever the compound is, so
 * that the part-by-part queries read ordinary shapes), and once for all in its own frame as a static
 * set, whose seams mark the joints between parts (the interior edges of a concave polygon, the joints
 * of a chain). The questions that a union answers differently from its parts - how deep another shape
 * is in it and which way out, when a motion first meets it - go to that set, with the other shape
 * carried into the compound's frame: the set's push-out is the shortest way out of the union, and its
 * sweep never stops at a seam. The rest is the union of the parts' answers: overlap, containment,
 * the nearest point from outside, ray casts and distances between apart shapes. */
#include "decompose.h"
#include "parts.h"
#include "predicates.h"
#include "sweep.h"

#include <stdlib.h>
#include <string.h>


static int compare_ll(const void *x, const void *y)
{
    long long a = *(const long long *)x, b = *(const long long *)y;
    return (a > b) - (a < b);
}

static int compare_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static int compare_int(const void *x, const void *y)
{
    int a = *(const int *)x, b = *(const int *)y;
    return (a > b) - (a < b);
}

/* An interior edge of the decomposition, its end points in order, and its part. */
typedef struct joint_edge {
    c2d_vec2 lo, hi;
    int part;
} joint_edge;

static int compare_joint(const void *x, const void *y)
{
    const joint_edge *a = (const joint_edge *)x, *b = (const joint_edge *)y;
    if (a->lo.x != b->lo.x)
        return a->lo.x < b->lo.x ? -1 : 1;
    if (a->lo.y != b->lo.y)
        return a->lo.y < b->lo.y ? -1 : 1;
    if (a->hi.x != b->hi.x)
        return a->hi.x < b->hi.x ? -1 : 1;
    if (a->hi.y != b->hi.y)
        return a->hi.y < b->hi.y ? -1 : 1;
    return (a->part > b->part) - (a->part < b->part);
}

/* How the parts of a compound meet (the fields of the same names in c2d_compound): owned arrays. */
typedef struct part_links {
    long long *adj;
    int n_adj;
    int *vstart, *vid;
} part_links;

static void links_free(part_links *l)
{
    free(l->adj);
    free(l->vstart);
    free(l->vid);
}

static c2d_status compound_copy(const c2d_compound *src, c2d_compound **out);

/* A compound over parts already made in its own frame (lpart, owned from now on) that meet as links
 * says (owned too): their world copies, and the set of them with their joints as seams and the cones
 * of their corners cut by every part meeting there. Frees what it was given on failure. */
static c2d_status compound_make(c2d_shape **lpart, int n, part_links links, int one_sided, c2d_compound **out)
{
    c2d_compound *c = (c2d_compound *)calloc(1, sizeof *c);
    if (!c) {
        for (int k = 0; k < n; k++)
            c2d_shape_destroy(lpart[k]);
        free(lpart);
        links_free(&links);
        return C2D_ERR_NO_MEMORY;
    }
    c->n = n;
    c->lpart = lpart;
    c->one_sided = one_sided;
    c->copy = compound_copy;
    c->drop_set = c2d_static_set_destroy;
    if (links.n_adj > 1)
        qsort(links.adj, (size_t)links.n_adj, sizeof *links.adj, compare_ll);
    c->adj = links.adj;
    c->n_adj = links.n_adj;
    c->vstart = links.vstart;
    c->vid = links.vid;
    c->part = (c2d_shape **)calloc((size_t)n, sizeof *c->part);
    c->lpos = (c2d_vec2 *)malloc((size_t)n * sizeof *c->lpos);
    c2d_status st = c->part && c->lpos ? C2D_OK : C2D_ERR_NO_MEMORY;
    for (int k = 0; k < n && st == C2D_OK; k++) {
        c->lpos[k] = lpart[k]->pos;
        st = c2d_shape_clone(lpart[k], &c->part[k]);
    }
    c2d_static_set_options opt;
    memset(&opt, 0, sizeof opt);
    opt.no_auto_seams = 1;
    if (st == C2D_OK)
        st = c2d_static_set_new((const c2d_shape *const *)lpart, n, &opt, &c->set);
    if (st != C2D_OK) {
        c2d_compound_free(c);
        return st;
    }
    c2d_static_set_join_parts(c->set, c);
    *out = c;
    return C2D_OK;
}

/* A copy of n ints (NULL for NULL); *ok = 0 when out of memory. */
static int *copy_ints(const int *src, int n, int *ok)
{
    if (!src)
        return NULL;
    int *d = (int *)malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
    if (!d)
        *ok = 0;
    else
        memcpy(d, src, (size_t)n * sizeof *d);
    return d;
}

/* A copy of src, its set made anew over the copied parts (c2d_compound_clone, through src->copy). */
static c2d_status compound_copy(const c2d_compound *src, c2d_compound **out)
{
    c2d_shape **lpart = (c2d_shape **)calloc((size_t)src->n, sizeof *lpart);
    part_links links;
    int ok = lpart != NULL;
    links.adj = (long long *)malloc((size_t)(src->n_adj > 0 ? src->n_adj : 1) * sizeof *links.adj);
    links.n_adj = src->n_adj;
    links.vstart = copy_ints(src->vstart, src->n + 1, &ok);
    links.vid = copy_ints(src->vid, src->vstart ? src->vstart[src->n] : 0, &ok);
    if (!ok || !links.adj) {
        free(lpart);
        links_free(&links);
        return C2D_ERR_NO_MEMORY;
    }
    memcpy(links.adj, src->adj, (size_t)src->n_adj * sizeof *links.adj);
    for (int k = 0; k < src->n; k++)
        if (c2d_shape_clone(src->lpart[k], &lpart[k]) != C2D_OK) {
            for (int j = 0; j < k; j++)
                c2d_shape_destroy(lpart[j]);
            free(lpart);
            links_free(&links);
            return C2D_ERR_NO_MEMORY;
        }
    return compound_make(lpart, src->n, links, src->one_sided, out);
}

/* A compound shape of kind type with outline (or chain) points pts[0 .. m) relative to its position
 * pos, and its parts in its frame; places it at pos. Frees lpart and links on failure. */
static c2d_status shape_make(c2d_shape_type type, const c2d_vec2 *pts, int m, c2d_vec2 pos, c2d_shape **lpart,
                             int n, part_links links, int one_sided, c2d_shape **out)
{
    c2d_compound *c;
    c2d_status st = compound_make(lpart, n, links, one_sided, &c);
    if (st != C2D_OK)
        return st;
    c2d_shape *s = c2d_shape_alloc_compound(type, pts, m, c);
    if (!s) {
        c2d_compound_free(c);
        return C2D_ERR_NO_MEMORY;
    }
    s->pos = pos;
    c2d_compound_place(s);
    *out = s;
    return C2D_OK;
}

/* Checks n points (finite, within range). */
static c2d_status check_points(const c2d_vec2 *p, int n)
{
    for (int i = 0; i < n; i++) {
        c2d_status st = c2d_check_vec(p[i]);
        if (st != C2D_OK)
            return st;
    }
    return C2D_OK;
}

/* The centre of the points' box, rounded to a coordinate every point is measured from exactly enough. */
static c2d_vec2 box_centre(const c2d_vec2 *p, int n)
{
    c2d_vec2 lo = p[0], hi = p[0];
    for (int i = 1; i < n; i++) {
        lo = v2(fmin(lo.x, p[i].x), fmin(lo.y, p[i].y));
        hi = v2(fmax(hi.x, p[i].x), fmax(hi.y, p[i].y));
    }
    return v2_mid(lo, hi);
}

c2d_status c2d_chain_new(const c2d_vec2 *points, int n, int flags, c2d_shape **out)
{
    if (!points || !out)
        return C2D_ERR_NULL;
    if (n < 0 || n > C2D_MAX_POLYGON_POINTS || (flags & ~(C2D_CHAIN_CLOSED | C2D_CHAIN_ONE_SIDED)) != 0)
        return C2D_ERR_RANGE;
    c2d_status st = check_points(points, n);
    if (st != C2D_OK)
        return st;
    int closed = (flags & C2D_CHAIN_CLOSED) != 0;
    /* Repeated consecutive points are dropped (and a closed chain's last point equal to its first). */
    c2d_vec2 *q = (c2d_vec2 *)malloc((size_t)(n > 0 ? n : 1) * sizeof *q);
    if (!q)
        return C2D_ERR_NO_MEMORY;
    int m = 0;
    for (int i = 0; i < n; i++)
        if (m == 0 || !v2_eq(points[i], q[m - 1]))
            q[m++] = points[i];
    if (closed && m > 1 && v2_eq(q[0], q[m - 1]))
        m--;
    if (m < (closed ? 3 : 2)) {
        free(q);
        return C2D_ERR_DEGENERATE;
    }
    c2d_vec2 pos = box_centre(q, m);
    int segs = closed ? m : m - 1;
    c2d_shape **lpart = (c2d_shape **)calloc((size_t)segs, sizeof *lpart);
    if (!lpart) {
        free(q);
        return C2D_ERR_NO_MEMORY;
    }
    /* Measured from the position: points a rounding apart may become one, and are then one point. */
    int w = 0;
    for (int i = 0; i < m; i++) {
        c2d_vec2 l = v2_sub(q[i], pos);
        if (w == 0 || !v2_eq(l, q[w - 1]))
            q[w++] = l;
    }
    if (closed && w > 1 && v2_eq(q[0], q[w - 1]))
        w--;
    if (w < (closed ? 3 : 2)) {
        free(lpart);
        free(q);
        return C2D_ERR_DEGENERATE;
    }
    m = w;
    segs = closed ? m : m - 1;
    for (int k = 0; k < segs && st == C2D_OK; k++)
        st = c2d_segment_new(q[k], q[(k + 1) % m], &lpart[k]);
    if (st != C2D_OK) {
        for (int k = 0; k < segs; k++)
            c2d_shape_destroy(lpart[k]);
        free(lpart);
        free(q);
        return st;
    }
    /* Each segment meets the next at a joint (and the last the first, closed). */
    long long *adj = (long long *)malloc((size_t)segs * sizeof *adj);
    int n_adj = 0;
    if (!adj) {
        for (int k = 0; k < segs; k++)
            c2d_shape_destroy(lpart[k]);
        free(lpart);
        free(q);
        return C2D_ERR_NO_MEMORY;
    }
    for (int k = 0; k + 1 < segs; k++)
        adj[n_adj++] = (long long)k * segs + k + 1;
    if (closed)
        adj[n_adj++] = segs - 1; /* the pair (0, segs - 1) */
    part_links links;
    links.adj = adj;
    links.n_adj = n_adj;
    links.vstart = links.vid = NULL;
    st = shape_make(C2D_SHAPE_CHAIN, q, m, pos, lpart, segs, links, (flags & C2D_CHAIN_ONE_SIDED) != 0, out);
    free(q);
    return st;
}

/* A vertex of a decomposition's part, by its point, for numbering the points. */
typedef struct corner_ref {
    c2d_vec2 p;
    int i; /* its index in the decomposition's verts */
} corner_ref;

static int compare_corner(const void *x, const void *y)
{
    const corner_ref *a = (const corner_ref *)x, *b = (const corner_ref *)y;
    if (a->p.x != b->p.x)
        return a->p.x < b->p.x ? -1 : 1;
    if (a->p.y != b->p.y)
        return a->p.y < b->p.y ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* The corners of the parts kept (part k of d is part final_of[k] of parts, or left out when -1):
 * links->vstart and links->vid as struct c2d_compound describes them. Every copy of a point is the
 * same point: the decomposition's vertices are bit-identical copies of the input's. */
static c2d_status number_corners(const c2d_decomposition *d, const int *final_of, int parts, part_links *links)
{
    int total = d->part_start[d->part_count];
    corner_ref *ref = (corner_ref *)malloc((size_t)(total > 0 ? total : 1) * sizeof *ref);
    int *num = (int *)malloc((size_t)(total > 0 ? total : 1) * sizeof *num);
    links->vstart = (int *)calloc((size_t)parts + 1, sizeof *links->vstart);
    links->vid = (int *)malloc((size_t)(total > 0 ? total : 1) * sizeof *links->vid);
    if (!ref || !num || !links->vstart || !links->vid) {
        free(ref);
        free(num);
        return C2D_ERR_NO_MEMORY;
    }
    for (int i = 0; i < total; i++) {
        ref[i].p = d->verts[i];
        ref[i].i = i;
    }
    qsort(ref, (size_t)total, sizeof *ref, compare_corner);
    for (int i = 0, id = 0; i < total; i++) {
        if (i > 0 && !v2_eq(ref[i].p, ref[i - 1].p))
            id++;
        num[ref[i].i] = id;
    }
    for (int k = 0; k < d->part_count; k++)
        if (final_of[k] >= 0)
            links->vstart[final_of[k] + 1] = d->part_start[k + 1] - d->part_start[k];
    for (int k = 0; k < parts; k++)
        links->vstart[k + 1] += links->vstart[k];
    for (int k = 0; k < d->part_count; k++) {
        int f = final_of[k];
        if (f < 0)
            continue;
        int *out = links->vid + links->vstart[f];
        for (int i = d->part_start[k]; i < d->part_start[k + 1]; i++)
            out[i - d->part_start[k]] = num[i];
        qsort(out, (size_t)(links->vstart[f + 1] - links->vstart[f]), sizeof *out, compare_int);
    }
    free(ref);
    free(num);
    return C2D_OK;
}

c2d_status c2d_concave_new(const c2d_vec2 *outline, int n, const c2d_vec2 *const *holes, const int *hole_counts,
                           int hole_count, c2d_shape **out)
{
    if (!out)
        return C2D_ERR_NULL;
    c2d_decomposition d;
    c2d_status st = c2d_decompose(outline, n, holes, hole_counts, hole_count, &d);
    if (st != C2D_OK)
        return st;
    /* The position is the centroid of the area, as for a convex polygon: the parts' centroids weighted
     * by their areas, measured from a point near them so that large coordinates cancel first. As there
     * (shape.c, polygon_centroid), the plain sum of areas is trusted only far above its rounding (the
     * products' sizes, summed in prod): a ring with no part of any thickness, valid however thin, has
     * its parts' areas computed to a few ulps of their exact values instead, never negative, so that
     * its centroid is a mean of points inside it rather than rounding divided by rounding. */
    c2d_vec2 o = d.verts[0], acc = v2(0, 0);
    double area = 0, prod = 0, size = 0;
    for (int k = 0; k < d.part_count; k++) {
        const c2d_vec2 *v = d.verts + d.part_start[k];
        int m = d.part_start[k + 1] - d.part_start[k];
        for (int i = 1; i + 1 < m; i++) {
            c2d_vec2 a = v2_sub(v[0], o), b = v2_sub(v[i], o), c = v2_sub(v[i + 1], o);
            c2d_vec2 ab = v2_sub(b, a), ac = v2_sub(c, a);
            double t = 0.5 * v2_cross(ab, ac);
            area += t;
            prod += 0.5 * (fabs(ab.x * ac.y) + fabs(ab.y * ac.x));
            acc = v2_add(acc, v2_scale(v2_add(v2_add(a, b), c), t / 3));
        }
        for (int i = 0; i < m; i++)
            size = fmax(size, fmax(fabs(v[i].x - o.x), fabs(v[i].y - o.y)));
    }
    c2d_vec2 pos = area > 0 ? v2_add(o, v2_scale(acc, 1 / area)) : o;
    if (!(area > 1e-6 * prod) && size > 0) {
        /* Differences within a part are at most 2 size: scaled to about 2^401, weights below 2^805. */
        int kw = 400 - ilogb(2 * size);
        double wsum = 0;
        acc = v2(0, 0);
        for (int k = 0; k < d.part_count; k++) {
            const c2d_vec2 *v = d.verts + d.part_start[k];
            int m = d.part_start[k + 1] - d.part_start[k];
            for (int i = 1; i + 1 < m; i++) {
                c2d_vec2 a = v2_sub(v[0], o), b = v2_sub(v[i], o), c = v2_sub(v[i + 1], o);
                double w = fmax(c2d_cross_scaled(v[0], v[i], v[i + 1], kw), 0);
                wsum += w;
                acc = v2_mad(acc, w, v2_add(v2_add(a, b), c));
            }
        }
        if (wsum > 0)
            pos = v2_add(o, v2_scale(acc, 1 / (3 * wsum)));
    }
    /* The outline, counter-clockwise, relative to the position: what c2d_shape_get_vertices reports. */
    int m = 0;
    c2d_vec2 *ring = (c2d_vec2 *)malloc((size_t)(n > 0 ? n : 1) * sizeof *ring);
    c2d_shape **lpart = (c2d_shape **)calloc((size_t)d.part_count, sizeof *lpart);
    c2d_vec2 *tmp = (c2d_vec2 *)malloc((size_t)(d.part_start[d.part_count] > 0 ? d.part_start[d.part_count] : 1) *
                                       sizeof *tmp);
    if (!ring || !lpart || !tmp) {
        free(ring);
        free(lpart);
        free(tmp);
        c2d_decomposition_free(&d);
        return C2D_ERR_NO_MEMORY;
    }
    double twice = 0;
    for (int i = 0; i < n; i++) {
        if (m > 0 && v2_eq(outline[i], ring[m - 1]))
            continue;
        ring[m++] = outline[i];
    }
    if (m > 1 && v2_eq(ring[0], ring[m - 1]))
        m--;
    for (int i = 0; i < m; i++)
        twice += v2_cross(v2_sub(ring[i], o), v2_sub(ring[(i + 1) % m], o));
    if (twice < 0)
        for (int i = 0, j = m - 1; i < j; i++, j--) {
            c2d_vec2 t = ring[i];
            ring[i] = ring[j];
            ring[j] = t;
        }
    for (int i = 0; i < m; i++)
        ring[i] = v2_sub(ring[i], pos);
    /* The joints: interior edges pair up end to end (decompose.h), so sorting them by their end points
     * puts twins side by side. */
    int n_int = 0, total = d.part_start[d.part_count];
    for (int i = 0; i < total; i++)
        n_int += d.internal[i] != 0;
    joint_edge *je = (joint_edge *)malloc((size_t)(n_int > 0 ? n_int : 1) * sizeof *je);
    int *final_of = (int *)malloc((size_t)d.part_count * sizeof *final_of);
    long long *adj = (long long *)malloc((size_t)(n_int > 0 ? n_int : 1) * sizeof *adj);
    if (!je || !final_of || !adj) {
        free(je);
        free(final_of);
        free(adj);
        free(ring);
        free(lpart);
        free(tmp);
        c2d_decomposition_free(&d);
        return C2D_ERR_NO_MEMORY;
    }
    n_int = 0;
    for (int k = 0; k < d.part_count; k++)
        for (int i = d.part_start[k]; i < d.part_start[k + 1]; i++) {
            if (!d.internal[i])
                continue;
            int i1 = i + 1 < d.part_start[k + 1] ? i + 1 : d.part_start[k];
            c2d_vec2 a = d.verts[i], b = d.verts[i1];
            int swap = a.x > b.x || (a.x == b.x && a.y > b.y);
            je[n_int].lo = swap ? b : a;
            je[n_int].hi = swap ? a : b;
            je[n_int].part = k;
            n_int++;
        }
    if (n_int > 1)
        qsort(je, (size_t)n_int, sizeof *je, compare_joint);
    /* Each part measured from the position: the subtraction rounds, which can leave a part a hair off
     * convex (taken as its hull) or, a sliver thinner than the rounding, exactly on one line (left out:
     * its neighbours' edges lie within the seam tolerance of each other across it). The points are
     * finite but may lie up to 2 C2D_MAX_COORDINATE from the position (a ring reaching the limit on
     * both sides), which c2d_hull_new would refuse as out of range: c2d_part_hull_new takes them. */
    int parts = 0;
    for (int k = 0; k < d.part_count && st == C2D_OK; k++) {
        int a = d.part_start[k], b = d.part_start[k + 1];
        for (int i = a; i < b; i++)
            tmp[i] = v2_sub(d.verts[i], pos);
        st = c2d_part_hull_new(tmp + a, b - a, &lpart[parts]);
        final_of[k] = st == C2D_OK ? parts : -1;
        if (st == C2D_OK)
            parts++;
        else if (st == C2D_ERR_DEGENERATE)
            st = C2D_OK;
    }
    if (st == C2D_OK && parts == 0)
        st = C2D_ERR_DEGENERATE;
    /* Twins make a joint of the parts kept; across a sliver left out, its neighbours join each other. */
    int n_adj = 0;
    for (int i = 0; i + 1 < n_int && st == C2D_OK; i++) {
        if (!v2_eq(je[i].lo, je[i + 1].lo) || !v2_eq(je[i].hi, je[i + 1].hi))
            continue;
        int pa = final_of[je[i].part], pb = final_of[je[i + 1].part];
        if (pa >= 0 && pb >= 0 && pa != pb)
            adj[n_adj++] = (long long)(pa < pb ? pa : pb) * parts + (pa < pb ? pb : pa);
        i++;
    }
    /* A left-out sliver: the parts it met join each other. Its twins sit beside its edges in je; the
     * (sliver, neighbour) pairs are grouped by sliver, and each group's neighbours paired (a sliver
     * has few edges). adj has room: a group of g neighbours adds at most g - 1 + ... pairs, bounded
     * by the joints the sliver took away. */
    long long *lost = (long long *)malloc((size_t)(n_int > 0 ? n_int : 1) * sizeof *lost);
    int n_lost = 0;
    if (!lost && st == C2D_OK)
        st = C2D_ERR_NO_MEMORY;
    for (int i = 0; i < n_int && st == C2D_OK; i++) {
        if (final_of[je[i].part] >= 0)
            continue;
        int tw = i > 0 && v2_eq(je[i - 1].lo, je[i].lo) && v2_eq(je[i - 1].hi, je[i].hi) ? i - 1
                 : i + 1 < n_int && v2_eq(je[i + 1].lo, je[i].lo) && v2_eq(je[i + 1].hi, je[i].hi) ? i + 1
                                                                                                : -1;
        if (tw >= 0 && final_of[je[tw].part] >= 0)
            lost[n_lost++] = (long long)je[i].part * parts + final_of[je[tw].part];
    }
    if (n_lost > 1)
        qsort(lost, (size_t)n_lost, sizeof *lost, compare_ll);
    for (int g = 0; g < n_lost && st == C2D_OK;) {
        int e = g;
        while (e < n_lost && lost[e] / parts == lost[g] / parts)
            e++;
        for (int x = g; x < e; x++)
            for (int y = x + 1; y < e; y++) {
                int pa = (int)(lost[x] % parts), pb = (int)(lost[y] % parts);
                if (pa == pb)
                    continue;
                long long key = (long long)(pa < pb ? pa : pb) * parts + (pa < pb ? pb : pa);
                long long *grown = (long long *)realloc(adj, (size_t)(n_adj + 1) * sizeof *adj);
                if (!grown) {
                    st = C2D_ERR_NO_MEMORY;
                    break;
                }
                adj = grown;
                adj[n_adj++] = key;
            }
        g = e;
    }
    free(lost);
    /* Duplicates (two parts may meet along more than one joint) are harmless but pointless. */
    if (n_adj > 1) {
        qsort(adj, (size_t)n_adj, sizeof *adj, compare_ll);
        int w = 1;
        for (int i = 1; i < n_adj; i++)
            if (adj[i] != adj[w - 1])
                adj[w++] = adj[i];
        n_adj = w;
    }
    part_links links;
    links.adj = adj;
    links.n_adj = n_adj;
    links.vstart = links.vid = NULL;
    if (st == C2D_OK)
        st = number_corners(&d, final_of, parts, &links);
    free(je);
    free(final_of);
    c2d_decomposition_free(&d);
    free(tmp);
    if (st != C2D_OK) {
        for (int k = 0; k < parts; k++)
            c2d_shape_destroy(lpart[k]);
        free(lpart);
        free(ring);
        links_free(&links);
        return st == C2D_ERR_NO_MEMORY ? st : C2D_ERR_DEGENERATE;
    }
    st = shape_make(C2D_SHAPE_CONCAVE, ring, m, pos, lpart, parts, links, 0, out);
    free(ring);
    return st;
}

/* ---- queries ---- */

/* A copy of b placed in a's frame (its placement relative to a's), or NULL when out of memory. */
static c2d_shape *carry(const c2d_shape *a, const c2d_shape *b)
{
    c2d_shape *t;
    if (c2d_shape_clone(b, &t) != C2D_OK)
        return NULL;
    c2d_xf r = c2d_xf_relative(c2d_shape_xf(a), c2d_shape_xf(b));
    c2d_shape_place(t, r.p, b->angle - a->angle, r.c, r.s);
    return t;
}

c2d_status c2d_compound_overlap(const c2d_shape *a, const c2d_shape *b, int *out)
{
    const c2d_shape *s = c2d_is_compound(a) ? a : b, *o = s == a ? b : a;
    const c2d_compound *c = c2d_compound_of(s);
    *out = 0;
    for (int k = 0; k < c->n && !*out; k++) {
        int hit = 0;
        /* o may be a compound itself: then each of its parts against this part. */
        c2d_status st = c2d_is_compound(o) ? c2d_compound_overlap(o, c->part[k], &hit)
                                           : c2d_convex_overlap(c->part[k], o, &hit);
        if (st != C2D_OK)
            return st;
        *out = hit;
    }
    return C2D_OK;
}

/* How far apart the placed parts of s may stand along an edge they share: each is placed on its own,
 * so a point exactly on the joint may fall a rounding error outside both. */
static double joint_slack(const c2d_shape *s)
{
    return 1e-15 * (1.0 + fmax(fabs(s->pos.x), fabs(s->pos.y)) + s->reach);
}

c2d_status c2d_compound_contains(const c2d_shape *s, c2d_vec2 p, int *out)
{
    const c2d_compound *c = c2d_compound_of(s);
    *out = 0;
    for (int k = 0; k < c->n && !*out; k++)
        c2d_convex_contains_point(c->part[k], p, out);
    if (*out || s->type == C2D_SHAPE_CHAIN)
        return C2D_OK;
    /* In the rounding gap of a joint (or that close to the outline, which counts as on it). */
    double slack = joint_slack(s);
    for (int k = 0; k < c->n && !*out; k++) {
        double d;
        c2d_convex_closest_point(c->part[k], p, NULL, &d);
        *out = d <= slack;
    }
    return C2D_OK;
}

c2d_status c2d_compound_raycast(const c2d_shape *s, c2d_vec2 o, c2d_vec2 d, double max_t, c2d_ray_hit *out)
{
    const c2d_compound *c = c2d_compound_of(s);
    c2d_ray_hit best;
    memset(&best, 0, sizeof best);
    int inside = 0;
    if (s->type == C2D_SHAPE_CONCAVE)
        c2d_compound_contains(s, o, &inside);
    if (inside) {
        /* Starting inside (also on a joint, between two parts' rounding): a hit at 0, facing back. */
        best.hit = 1;
        best.point = o;
        best.normal = v2_neg(v2_normalize_or(d, v2(1, 0)));
        *out = best;
        return C2D_OK;
    }
    for (int k = 0; k < c->n; k++) {
        c2d_ray_hit h;
        c2d_status st = c2d_convex_raycast(c->part[k], o, d, max_t, &h);
        if (st != C2D_OK)
            return st;
        if (h.hit && (!best.hit || h.t < best.t))
            best = h;
    }
    *out = best;
    return C2D_OK;
}

c2d_status c2d_compound_closest(const c2d_shape *s, c2d_vec2 p, c2d_vec2 *out_point, double *out_distance)
{
    const c2d_compound *c = c2d_compound_of(s);
    int inside = 0;
    c2d_compound_contains(s, p, &inside);
    c2d_vec2 best_q = p;
    double best = INFINITY;
    if (!inside || s->type == C2D_SHAPE_CHAIN) {
        /* Outside the union its nearest point is the nearest of any part's. */
        for (int k = 0; k < c->n; k++) {
            c2d_vec2 q;
            double dist;
            c2d_convex_closest_point(c->part[k], p, &q, &dist);
            if (dist < best) {
                best = dist;
                best_q = q;
            }
        }
    } else {
        /* Inside, the nearest point of the union's boundary: of the parts' edges, those that are no
         * seam (the set knows which, in the compound's frame). */
        c2d_xf x = c2d_shape_xf(s);
        c2d_vec2 lp = c2d_xf_local(x, p);
        for (int k = 0; k < c->n; k++) {
            const c2d_shape *part = c->lpart[k];
            for (int e = 0; e < part->count; e++) {
                int seam = 0;
                c2d_static_set_is_seam(c->set, k, e, &seam);
                if (seam)
                    continue;
                c2d_vec2 va = c2d_world_vertex(part, e), vb = c2d_world_vertex(part, (e + 1) % part->count);
                c2d_vec2 q = c2d_segment_closest(va, vb, lp);
                double dist = v2_len_safe(v2_sub(q, lp));
                if (dist < best) {
                    best = dist;
                    best_q = q;
                }
            }
        }
        best_q = c2d_xf_apply(x, best_q);
        best = -best;
    }
    if (out_point)
        *out_point = best_q;
    if (out_distance)
        *out_distance = best;
    return C2D_OK;
}

/* The push-out of convex b out of the union of compound a's parts, in a's frame (zero when b is not in
 * it deeper than touching). */
static c2d_status union_push(const c2d_shape *a, const c2d_shape *b, c2d_vec2 *out)
{
    c2d_shape *lb = carry(a, b);
    if (!lb)
        return C2D_ERR_NO_MEMORY;
    c2d_status st = c2d_static_set_push_out(c2d_compound_of(a)->set, lb, out);
    c2d_shape_destroy(lb);
    return st;
}

/* The contact of compound a with convex b (normal from a to b): the push-out of b from a's set gives
 * the depth and the normal; the points are those of the part whose own contact agrees best with it.
 * The parts' contacts are taken in the world, as c2d_compound_overlap takes them, so that a contact
 * is found exactly when the shapes overlap. */
static c2d_status compound_convex_contact(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    const c2d_compound *c = c2d_compound_of(a);
    memset(out, 0, sizeof *out);
    c2d_vec2 d;
    c2d_status st = union_push(a, b, &d);
    if (st != C2D_OK)
        return st;
    c2d_xf x = c2d_shape_xf(a);
    double depth = v2_len_safe(d);
    c2d_vec2 n = depth > 0 ? c2d_rotate(x, v2_scale(d, 1 / depth)) : v2(0, 0);
    int best = -1;
    double agree = -INFINITY;
    c2d_contact pc, chosen;
    memset(&chosen, 0, sizeof chosen);
    for (int k = 0; k < c->n; k++) {
        if ((st = c2d_convex_collide(c->part[k], b, &pc)) != C2D_OK)
            break;
        if (pc.count == 0)
            continue;
        /* With a push: the part contact closest to its direction; touching only: the shallowest. */
        double score = depth > 0 ? v2_dot(pc.normal, n) : -pc.depth;
        if (best < 0 || score > agree) {
            best = k;
            agree = score;
            chosen = pc;
        }
    }
    if (st != C2D_OK)
        return st;
    if (best < 0)
        return C2D_OK;
    if (depth > 0) {
        chosen.normal = n;
        chosen.depth = depth;
        for (int i = 0; i < chosen.count; i++)
            chosen.point_depths[i] = fmin(chosen.point_depths[i], depth);
    } else {
        /* In the union no deeper than touching (the push-out found no way to go): touching. */
        chosen.depth = 0;
        for (int i = 0; i < chosen.count; i++)
            chosen.point_depths[i] = 0;
    }
    *out = chosen;
    return C2D_OK;
}

static void flip_contact(c2d_contact *c)
{
    if (c->count > 0)
        c->normal = v2_neg(c->normal);
}

/* Whether compound b comes before compound a in a fixed order of their geometry (kind, size, placement,
 * outline), never of the arguments: a pair of compounds is computed in that order whichever way it is
 * asked, so that (a, b) and (b, a) agree exactly. */
static int compound_second_first(const c2d_shape *a, const c2d_shape *b)
{
    if (a->type != b->type)
        return b->type < a->type;
    if (a->count != b->count)
        return b->count < a->count;
    const double ka[3] = {a->pos.x, a->pos.y, a->angle}, kb[3] = {b->pos.x, b->pos.y, b->angle};
    for (int i = 0; i < 3; i++)
        if (ka[i] != kb[i])
            return kb[i] < ka[i];
    for (int i = 0; i < a->count; i++) {
        if (a->data[i].x != b->data[i].x)
            return b->data[i].x < a->data[i].x;
        if (a->data[i].y != b->data[i].y)
            return b->data[i].y < a->data[i].y;
    }
    /* Equal as numbers: by their bits (-0 and +0 differ there, and in what the queries return). */
    int c = memcmp(ka, kb, sizeof ka);
    if (c == 0)
        c = memcmp(a->data, b->data, (size_t)a->count * sizeof *a->data);
    if (c != 0)
        return c > 0;
    /* The same points: a chain open or closed, one-sided or not, an outline with other holes. */
    const c2d_compound *ca = c2d_compound_of(a), *cb = c2d_compound_of(b);
    if (ca->n != cb->n)
        return cb->n < ca->n;
    if (ca->one_sided != cb->one_sided)
        return cb->one_sided < ca->one_sided;
    for (int k = 0; k < ca->n; k++) {
        const c2d_shape *pa = ca->lpart[k], *pb = cb->lpart[k];
        if (pa->count != pb->count)
            return pb->count < pa->count;
        c = memcmp(&pa->pos, &pb->pos, sizeof pa->pos);
        if (c == 0)
            c = memcmp(pa->data, pb->data, (size_t)pa->count * sizeof *pa->data);
        if (c != 0)
            return c > 0;
    }
    return 0;
}

static c2d_status compound_convex_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db,
                                        c2d_toi *out);

/* How far along unit u compound b must move for none of its parts to overlap compound a: each part is
 * put far out along u and swept back to where it stands; the first touch of each is where it comes
 * clear, and the farthest of those clears them all (moving farther keeps every part clear: each part
 * met nothing on its way in before its touch). moved holds a copy of each of b's parts, placed here,
 * as caught_after places them. */
static c2d_status clear_along(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, c2d_vec2 u, double *out)
{
    const c2d_compound *cb = c2d_compound_of(b);
    double far = v2_len_safe(v2_sub(b->pos, a->pos)) + a->reach + b->reach;
    far = far * (1 + 1e-6) + 1e-300;
    double s = 0;
    for (int k = 0; k < cb->n; k++) {
        const c2d_shape *q = cb->part[k];
        c2d_shape_place(moved[k], v2_mad(q->pos, far, u), q->angle, q->c, q->s);
        c2d_toi toi;
        c2d_status st = compound_convex_sweep(a, v2(0, 0), moved[k], v2_scale(u, -far), &toi);
        if (st != C2D_OK)
            return st;
        double sk = toi.state == C2D_TOI_HIT ? far * (1 - toi.t) : toi.state == C2D_TOI_OVERLAP ? far : 0;
        s = sk > s ? sk : s;
    }
    *out = s;
    return C2D_OK;
}

/* Whether the boxes of two placed shapes come within tol of each other. */
static int boxes_within(const c2d_shape *p, const c2d_shape *q, double tol)
{
    c2d_aabb x = c2d_shape_aabb(p), y = c2d_shape_aabb(q);
    return x.min.x - tol <= y.max.x && y.min.x - tol <= x.max.x && x.min.y - tol <= y.max.y &&
           y.min.y - tol <= x.max.y;
}

/* Whether chain c is closed (its last part meets its first). */
static int chain_closed(const c2d_compound *c)
{
    return c->n >= 3 && c2d_compound_meet(c, 0, c->n - 1) == C2D_PARTS_JOINT;
}

/* The joint at the end of chain c's part i, where it meets the next part (none at an open chain's last
 * part), with its parts placed as parts[]: the shared point in *j, and the vectors from it to the far
 * ends of the two segments (its arms) in *p (back along the chain) and *q (on along it). Each segment
 * is placed on its own, so the shared point is taken midway between the two ends nearest each other. */
static int chain_joint(const c2d_compound *c, const c2d_shape *const *parts, int i, c2d_vec2 *j, c2d_vec2 *p,
                       c2d_vec2 *q)
{
    int next = i + 1 < c->n ? i + 1 : (chain_closed(c) ? 0 : -1);
    if (next < 0)
        return 0;
    c2d_vec2 e[2] = {c2d_world_vertex(parts[i], 0), c2d_world_vertex(parts[i], 1)};
    c2d_vec2 f[2] = {c2d_world_vertex(parts[next], 0), c2d_world_vertex(parts[next], 1)};
    int bi = 1, bn = 0;
    double best = INFINITY;
    for (int x = 0; x < 2; x++)
        for (int y = 0; y < 2; y++) {
            double dist = v2_len_safe(v2_sub(e[x], f[y]));
            if (dist < best) {
                best = dist;
                bi = x;
                bn = y;
            }
        }
    *j = v2_mid(e[bi], f[bn]);
    *p = v2_sub(e[1 - bi], *j);
    *q = v2_sub(f[1 - bn], *j);
    return 1;
}

/* The arms of chain c (parts placed as parts[]) at point x of its part k, back and on along the chain:
 * at an end of the part that is a joint (within tol), the joint's; inside the part, its two halves. 0
 * at an open end (one arm). The part is the one the other chain met there: where c crosses itself,
 * another part may pass through x too, and its arms are another branch. */
static int chain_arms_at(const c2d_compound *c, const c2d_shape *const *parts, int k, c2d_vec2 x, double tol,
                         c2d_vec2 *back, c2d_vec2 *on)
{
    c2d_vec2 e0 = c2d_world_vertex(parts[k], 0), e1 = c2d_world_vertex(parts[k], 1), j;
    if (v2_len_safe(v2_sub(e0, x)) <= tol) {
        int prev = k > 0 ? k - 1 : (chain_closed(c) ? c->n - 1 : -1);
        return prev >= 0 && chain_joint(c, parts, prev, &j, back, on);
    }
    if (v2_len_safe(v2_sub(e1, x)) <= tol)
        return chain_joint(c, parts, k, &j, back, on);
    *back = v2_sub(e0, x);
    *on = v2_sub(e1, x);
    return 1;
}

/* Which side of chain c an arm q from a point of it leaves on, given c's arms there back and on along
 * it: 1 on its left (the angle turned counter-clockwise from the arm on to the arm back), -1 on its
 * right, 0 along either arm (q's far end within tol of the arm's line, on its side of the point). */
static int arm_side(c2d_vec2 back, c2d_vec2 on, c2d_vec2 q, double tol)
{
    c2d_vec2 u1 = v2_normalize_or(on, v2(1, 0)), u2 = v2_normalize_or(back, v2(1, 0));
    double c1 = v2_cross(u1, q), c2 = v2_cross(u2, q);
    if ((fabs(c1) <= tol && v2_dot(u1, q) > 0) || (fabs(c2) <= tol && v2_dot(u2, q) > 0))
        return 0;
    double turn = v2_cross(u1, u2);
    int in;
    if (turn > 0)
        in = c1 > 0 && c2 < 0; /* the angle from on to back is less than a half-turn */
    else if (turn < 0)
        in = !(c1 < 0 && c2 > 0); /* the other one is */
    else
        in = v2_dot(u1, u2) < 0 && c1 > 0; /* straight: left of on; folded back: one side only */
    return in ? 1 : -1;
}

/* A stretch of chain b's path lying on chain a, from s0 to s1 along b (part k of b covers [k, k + 1],
 * from its vertex 0 to its vertex 1), a point when s0 == s1; on a's parts p0 at s0 and p1 at s1. */
typedef struct stretch {
    double s0, s1;
    int p0, p1;
} stretch;

/* By start, the longest first (where b runs along a part of a from a point another part of a passes
 * through too, the stretch starts on the part it runs along); then by part. */
static int compare_stretch(const void *x, const void *y)
{
    const stretch *a = (const stretch *)x, *b = (const stretch *)y;
    if (a->s0 != b->s0)
        return a->s0 < b->s0 ? -1 : 1;
    if (a->s1 != b->s1)
        return a->s1 > b->s1 ? -1 : 1;
    return (a->p0 > b->p0) - (a->p0 < b->p0);
}

/* The point of chain b's path at s. */
static c2d_vec2 path_at(const c2d_shape *const *parts, int n, double s)
{
    int k = (int)floor(s);
    k = k < 0 ? 0 : (k >= n ? n - 1 : k);
    c2d_vec2 e0 = c2d_world_vertex(parts[k], 0), e1 = c2d_world_vertex(parts[k], 1);
    return v2_mad(e0, s - k, v2_sub(e1, e0));
}

/* The arm of chain b's path leaving the point at s backwards (dir -1) or onwards (dir 1), within tol
 * of a vertex: to the vertex before or after it (none past an open chain's end: returns 0); else along
 * the part it is on. */
static int path_arm(const c2d_compound *cb, const c2d_shape *const *parts, double s, int dir, double tol,
                    c2d_vec2 *out)
{
    int n = cb->n, closed = chain_closed(cb);
    int k = (int)floor(s);
    k = k < 0 ? 0 : (k >= n ? n - 1 : k);
    c2d_vec2 x = path_at(parts, n, s), e0 = c2d_world_vertex(parts[k], 0), e1 = c2d_world_vertex(parts[k], 1);
    if (dir < 0) {
        if (v2_len_safe(v2_sub(x, e0)) > tol) {
            *out = v2_sub(e0, x);
            return 1;
        }
        if (k == 0 && !closed)
            return 0;
        *out = v2_sub(c2d_world_vertex(parts[k == 0 ? n - 1 : k - 1], 0), x);
        return 1;
    }
    if (v2_len_safe(v2_sub(x, e1)) > tol) {
        *out = v2_sub(e1, x);
        return 1;
    }
    if (k == n - 1 && !closed)
        return 0;
    *out = v2_sub(c2d_world_vertex(parts[k == n - 1 ? 0 : k + 1], 1), x);
    return 1;
}

/* Whether chain b (parts placed as bparts) passes from one side of chain a to the other where they
 * meet without crossing part against part: through a joint of a, at a joint of its own on a, or along
 * a stretch it shares with a. Each segment there only touches the other chain, so no pair of parts
 * sees that, and the union's push-out sees it only where rounding leaves the point clear of every
 * segment but one. b's path is followed (only the parts marked in near_b, within tol of a) and cut
 * into the stretches where it lies on a (points where it meets a, runs along it); b crosses a at
 * one where it comes in from one side of a and leaves on the other: the arm of b before the stretch
 * and the arm after it, each against a's arms where it leaves (its joint's, or its segment's two
 * halves). An end of b on a, or an end of a, has no sides: b touches there. */
static c2d_status chains_cross(const c2d_compound *ca, const c2d_shape *const *aparts, const c2d_compound *cb,
                               const c2d_shape *const *bparts, const int *near_b, double tol, int *out)
{
    *out = 0;
    int cap = 16, m = 0;
    stretch stack[16], *st = stack;
    for (int k = 0; k < cb->n; k++) {
        if (!near_b[k])
            continue;
        c2d_vec2 e0 = c2d_world_vertex(bparts[k], 0), e1 = c2d_world_vertex(bparts[k], 1), d = v2_sub(e1, e0);
        double len = v2_len_safe(d);
        if (!(len > 0))
            continue;
        c2d_vec2 u = v2_scale(d, 1 / len);
        for (int i = 0; i < ca->n; i++) {
            c2d_vec2 p0 = c2d_world_vertex(aparts[i], 0), p1 = c2d_world_vertex(aparts[i], 1);
            double h0 = v2_cross(u, v2_sub(p0, e0)), h1 = v2_cross(u, v2_sub(p1, e0));
            double t[5];
            int nt = 0, run = 0;
            if (fabs(h0) <= tol && fabs(h1) <= tol) {
                /* Along b's line: the overlap of the two, if any. */
                double a0 = v2_dot(v2_sub(p0, e0), u) / len, a1 = v2_dot(v2_sub(p1, e0), u) / len;
                double lo = fmax(fmin(a0, a1), 0), hi = fmin(fmax(a0, a1), 1), slack = tol / len;
                if (lo <= hi + slack) {
                    t[nt++] = fmin(lo, hi);
                    t[nt++] = fmax(lo, hi);
                    run = 1;
                }
            } else {
                /* Points: an end of either on the other, or a crossing. */
                for (int w = 0; w < 2; w++) {
                    c2d_vec2 pw = w ? p1 : p0;
                    if (v2_len_safe(v2_sub(c2d_segment_closest(e0, e1, pw), pw)) <= tol)
                        t[nt++] = fmin(fmax(v2_dot(v2_sub(pw, e0), u) / len, 0), 1);
                    c2d_vec2 ew = w ? e1 : e0;
                    if (v2_len_safe(v2_sub(c2d_segment_closest(p0, p1, ew), ew)) <= tol)
                        t[nt++] = w;
                }
                if ((h0 > tol && h1 < -tol) || (h0 < -tol && h1 > tol)) {
                    double f = h0 / (h0 - h1);
                    c2d_vec2 x = v2_mad(p0, f, v2_sub(p1, p0));
                    double tx = v2_dot(v2_sub(x, e0), u) / len;
                    if (tx >= 0 && tx <= 1)
                        t[nt++] = tx;
                }
            }
            for (int r = 0; r < nt; r += run ? 2 : 1) {
                if (m == cap) {
                    stretch *grown = (stretch *)malloc(2 * (size_t)cap * sizeof *grown);
                    if (!grown) {
                        if (st != stack)
                            free(st);
                        return C2D_ERR_NO_MEMORY;
                    }
                    memcpy(grown, st, (size_t)m * sizeof *st);
                    if (st != stack)
                        free(st);
                    st = grown;
                    cap *= 2;
                }
                st[m].s0 = k + t[r];
                st[m].s1 = k + t[run ? r + 1 : r];
                st[m].p0 = st[m].p1 = i;
                m++;
            }
        }
    }
    /* Each point where b meets a part of a, against that part's arms there: where a passes through
     * one point more than once (a joint of a on another of its segments, a chain folded back on
     * itself), b may cross one branch and only touch another, and the stretch below sees only the
     * first. Inside a stretch b runs along a, and an arm along a is on no side. */
    for (int r = 0; r < m && !*out; r++) {
        if (st[r].s1 != st[r].s0)
            continue;
        c2d_vec2 qb, qo, back, on, x = path_at(bparts, cb->n, st[r].s0);
        if (path_arm(cb, bparts, st[r].s0, -1, tol, &qb) && path_arm(cb, bparts, st[r].s0, 1, tol, &qo) &&
            chain_arms_at(ca, aparts, st[r].p0, x, tol, &back, &on)) {
            int side0 = arm_side(back, on, qb, tol), side1 = arm_side(back, on, qo, tol);
            *out = side0 != 0 && side1 != 0 && side0 != side1;
        }
    }
    if (m > 1)
        qsort(st, (size_t)m, sizeof *st, compare_stretch);
    /* Stretches that meet (along b's path: to tol in the world across a part or two, as rounding may
     * leave a gap at a joint) are one; on a closed chain the last may go on into the first. */
    int merged = 0;
    for (int r = 0; r < m; r++) {
        if (merged > 0 &&
            (st[r].s0 <= st[merged - 1].s1 ||
             (st[r].s0 - st[merged - 1].s1 < 1 &&
              v2_len_safe(v2_sub(path_at(bparts, cb->n, st[r].s0), path_at(bparts, cb->n, st[merged - 1].s1))) <=
                  2 * tol))) {
            if (st[r].s1 > st[merged - 1].s1) {
                st[merged - 1].s1 = st[r].s1;
                st[merged - 1].p1 = st[r].p1;
            }
            continue;
        }
        st[merged++] = st[r];
    }
    int closed = chain_closed(cb);
    if (*out)
        merged = 0; /* crossing already */
    if (closed && merged > 1 && st[0].s0 <= 0 && st[merged - 1].s1 >= cb->n) {
        st[0].s0 = st[merged - 1].s0 - cb->n; /* the last goes on into the first */
        st[0].p0 = st[merged - 1].p0;
        merged--;
    }
    for (int r = 0; r < merged && !*out; r++) {
        if (closed && st[r].s0 <= st[r].s1 - cb->n)
            continue; /* all of b lies on a */
        double s0 = st[r].s0 < 0 ? st[r].s0 + cb->n : st[r].s0;
        c2d_vec2 qb, qo, x0 = path_at(bparts, cb->n, s0), x1 = path_at(bparts, cb->n, st[r].s1);
        c2d_vec2 back0, on0, back1, on1;
        if (!path_arm(cb, bparts, s0, -1, tol, &qb) || !path_arm(cb, bparts, st[r].s1, 1, tol, &qo) ||
            !chain_arms_at(ca, aparts, st[r].p0, x0, tol, &back0, &on0) ||
            !chain_arms_at(ca, aparts, st[r].p1, x1, tol, &back1, &on1))
            continue;
        int side0 = arm_side(back0, on0, qb, tol), side1 = arm_side(back1, on1, qo, tol);
        *out = side0 != 0 && side1 != 0 && side0 != side1;
    }
    if (st != stack)
        free(st);
    return C2D_OK;
}

/* Whether a chain's segment that touches a concave polygon lies inside it deeper than tol, though it
 * only touches each part: along a joint between two parts. The union's push-out (the set of the
 * parts, with their joints as seams) sees that; no part pair does. */
static c2d_status inside_union(const c2d_shape *whole, const c2d_shape *seg, double tol, int *out)
{
    c2d_vec2 d;
    c2d_status st = union_push(whole, seg, &d);
    *out = st == C2D_OK && v2_len_safe(d) > tol;
    return st;
}

/* Whether compound b moved by d overlaps compound a deeper than tol: moved holds a copy of each of b's
 * parts, placed here; near (one per part of a, then one per part of b) is scratch. For parts with
 * area, every part pair at most touching is the union at most touching (a move that clears the union
 * clears each part, which is at least each pair's depth; and parts with area that only touch share no
 * inside). A chain's segments have none, and may touch every part of the other shape and still be in
 * it: passing from one side of the other chain to the other through a joint of either or along a
 * stretch they share (chains_cross), or along a joint inside a concave polygon (inside_union asks the
 * other shape's union of each segment that touches it). Touching is taken to tol, by distance:
 * rounding may put the point where two parts meet a hair off either. */
static c2d_status caught_after(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, int *near, c2d_vec2 d,
                               double tol, int *out)
{
    const c2d_compound *ca = c2d_compound_of(a), *cb = c2d_compound_of(b);
    int chain_a = a->type == C2D_SHAPE_CHAIN, chain_b = b->type == C2D_SHAPE_CHAIN;
    int *near_a = near, *near_b = near + ca->n;
    c2d_status st = C2D_OK;
    *out = 0;
    for (int i = 0; i < ca->n + cb->n; i++)
        near[i] = 0;
    for (int j = 0; j < cb->n && !*out; j++) {
        const c2d_shape *q = cb->part[j];
        c2d_shape_place(moved[j], v2_add(q->pos, d), q->angle, q->c, q->s);
        for (int i = 0; i < ca->n && !*out; i++) {
            c2d_contact c;
            if ((st = c2d_convex_collide(ca->part[i], moved[j], &c)) != C2D_OK)
                return st;
            *out = c.count > 0 && c.depth > tol;
            int close = c.count > 0;
            if (!close && (chain_a || chain_b) && boxes_within(ca->part[i], moved[j], tol)) {
                c2d_distance_result r;
                if ((st = c2d_convex_distance(ca->part[i], moved[j], &r)) != C2D_OK)
                    return st;
                close = r.distance <= tol;
            }
            near_a[i] |= close;
            near_b[j] |= close;
        }
    }
    if (*out || !(chain_a || chain_b))
        return C2D_OK;
    if (chain_a && chain_b &&
        ((st = chains_cross(ca, (const c2d_shape *const *)ca->part, cb, (const c2d_shape *const *)moved, near_b, tol,
                            out)) != C2D_OK ||
         *out))
        return st;
    /* Each chain segment touching the other shape, against its union: the union's push-out is what the
     * pair's contact asks of each part (compound_convex_contact), so a place it finds a segment deep
     * in would not be touching by c2d_distance either (at coordinates far larger than the parts, a
     * crossing shallower than tol by part pairs can be one the segment leaves only far away). */
    for (int j = 0; chain_b && j < cb->n && !*out && st == C2D_OK; j++)
        if (near_b[j])
            st = inside_union(a, moved[j], tol, out);
    for (int i = 0; chain_a && i < ca->n && !*out && st == C2D_OK; i++) {
        if (!near_a[i])
            continue;
        /* a's segment against b's union where b stands after the move: the segment moved back by d
         * against b where it stands. */
        const c2d_shape *p = ca->part[i];
        c2d_shape *back;
        if ((st = c2d_shape_clone(p, &back)) != C2D_OK)
            break;
        c2d_shape_place(back, v2_sub(p->pos, d), p->angle, p->c, p->s);
        st = inside_union(b, back, tol, out);
        c2d_shape_destroy(back);
    }
    return st;
}

/* The distances s > from at which b moved by s u (unit) has a vertex of a part of one shape on an edge
 * of a part of the other, where whether a chain crosses the other shape can change: each vertex cast
 * along the motion (a's backwards) against the other's edges. Ascending, in a new array (NULL when
 * there are none or memory ran out: *count says which, -1 for no memory). */
static double *events_along(const c2d_shape *a, const c2d_shape *b, c2d_vec2 u, double from, int *count)
{
    const c2d_compound *ca = c2d_compound_of(a), *cb = c2d_compound_of(b);
    size_t cap = 0;
    for (int i = 0; i < ca->n; i++)
        for (int j = 0; j < cb->n; j++)
            cap += (size_t)ca->part[i]->count * (size_t)cb->part[j]->count * 2;
    double *ev = cap > 0 ? (double *)malloc(cap * sizeof *ev) : NULL;
    *count = 0;
    if (!ev) {
        *count = cap > 0 ? -1 : 0;
        return NULL;
    }
    for (int w = 0; w < 2; w++) {
        /* w = 0: b's vertices moving along u onto a's edges; w = 1: a's along -u onto b's. */
        const c2d_compound *cv = w ? ca : cb, *ce = w ? cb : ca;
        c2d_vec2 dir = w ? v2_neg(u) : u;
        for (int i = 0; i < cv->n; i++) {
            const c2d_shape *pv = cv->part[i];
            for (int k = 0; k < pv->count; k++) {
                c2d_vec2 x = c2d_world_vertex(pv, k);
                for (int j = 0; j < ce->n; j++) {
                    const c2d_shape *pe = ce->part[j];
                    int edges = pe->count >= 3 ? pe->count : 1;
                    for (int e = 0; e < edges; e++) {
                        c2d_vec2 p = c2d_world_vertex(pe, e), q = c2d_world_vertex(pe, (e + 1) % pe->count);
                        c2d_vec2 d = v2_sub(q, p);
                        double den = v2_cross(dir, d);
                        if (den == 0)
                            continue;
                        double t = v2_cross(v2_sub(p, x), d) / den, f = v2_cross(v2_sub(p, x), dir) / den;
                        if (t > from && f >= 0 && f <= 1 && isfinite(t))
                            ev[(*count)++] = t;
                    }
                }
            }
        }
    }
    qsort(ev, (size_t)*count, sizeof *ev, compare_double);
    return ev;
}

/* For pairs with a chain, whose parts' sweeps and touches do not see a segment that slides along its
 * own line through a joint, or into a joint inside a concave polygon (clear_along stops there): the
 * least distance s >= from along unit u at which b moved by s u is not caught (caught_after), trying
 * from itself and then every event beyond it in order. *out = -1 when none is. */
static c2d_status verified_along(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, int *near, c2d_vec2 u,
                                 double from, double tol, double *out)
{
    int caught = 0;
    c2d_status st = caught_after(a, b, moved, near, v2_scale(u, from), tol, &caught);
    *out = from;
    if (st != C2D_OK || !caught)
        return st;
    int count = 0;
    double *ev = events_along(a, b, u, from, &count);
    if (count < 0)
        return C2D_ERR_NO_MEMORY;
    *out = -1;
    for (int k = 0; k < count && st == C2D_OK && *out < 0; k++) {
        if (k > 0 && ev[k] == ev[k - 1])
            continue;
        st = caught_after(a, b, moved, near, v2_scale(u, ev[k]), tol, &caught);
        if (st == C2D_OK && !caught)
            *out = ev[k];
    }
    free(ev);
    return st;
}

/* For pairs with a chain: b moved by len u (unit) overlaps a in nothing, but a chain has no inside, and
 * there b may stand inside a closed chain's loop, apart from it (clear_along's places are outside it,
 * beyond every part's first touch). The place where b, moved back from there along -u, first touches
 * a, in *out, when nothing is caught there; else len. */
static c2d_status back_to_touch(const c2d_shape *a, const c2d_shape *b, c2d_shape **moved, int *near, c2d_vec2 u,
                                double len, double tol, double *out)
{
    const c2d_compound *cb = c2d_compound_of(b);
    double first = 1;
    *out = len;
    for (int k = 0; k < cb->n; k++) {
        const c2d_shape *q = cb->part[k];
        c2d_shape_place(moved[k], v2_mad(q->pos, len, u), q->angle, q->c, q->s);
        c2d_toi toi;
        c2d_status st = compound_convex_sweep(a, v2(0, 0), moved[k], v2_scale(u, -len), &toi);
        if (st != C2D_OK)
            return st;
        if (toi.state != C2D_TOI_NONE && toi.t < first)
            first = toi.state == C2D_TOI_HIT ? toi.t : 0;
    }
    if (!(first > 0) || first >= 1)
        return C2D_OK; /* touching there already (or nothing met on the way back: as it was) */
    double s = len * (1 - first);
    int caught = 0;
    c2d_status st = caught_after(a, b, moved, near, v2_scale(u, s), tol, &caught);
    if (st == C2D_OK && !caught)
        *out = s;
    return st;
}

/* A move of b tried as the answer: the translation, its length, and the candidate whose points it
 * keeps. */
typedef struct pair_move {
    c2d_vec2 t;
    double len;
    int from;
} pair_move;

static int compare_move(const void *x, const void *y)
{
    const pair_move *p = (const pair_move *)x, *q = (const pair_move *)y;
    if (p->len != q->len)
        return p->len < q->len ? -1 : 1;
    if (p->from != q->from)
        return p->from < q->from ? -1 : 1;
    return p->t.x != q->t.x ? (p->t.x < q->t.x ? -1 : 1) : (p->t.y < q->t.y ? -1 : p->t.y > q->t.y);
}

/* Two compounds, in their fixed order. Every part of b pushed out of the whole of a, and every part of
 * a out of the whole of b (as a move of b the other way), gives a candidate: a move that clears that
 * one part. When the longest clears all of b, it is the minimum translation. Where it does not (a part
 * caught in a pocket of the other shape, another pressed on its rim), the way out is often a corner:
 * the move meeting two candidates' faces at once (n_i . t = d_i, n_j . t = d_j). So the candidates and
 * the corners of every two of them are tried, shortest first, and the first that leaves no part of b
 * deeper in a than rounding is the answer, taken along its direction only as far as clears every part
 * (clear_along). Shorter ones than the longest candidate are tried too (down
 * to the deepest pair of parts' own depth, a lower bound): a part's push-out out of a whole compound
 * can be longer than its shortest way out, where that way touches several parts at a corner inside the
 * outline (see c2d_static_set_push_out's seams). Failing all, each candidate's direction is tried whole (clear_along: the move along it that clears every
 * part), and the least of those is taken. With a chain, whose segments have no inside, parts that only
 * touch may still cross (caught_after), sweeps of parts may stop where a segment slides along its own
 * line into a joint (verified_along), and a move may leave a chain inside the other's loop, apart
 * (back_to_touch): every place taken is checked, as the moves tried are. */
static c2d_status compound_pair_contact(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    const c2d_compound *ca = c2d_compound_of(a), *cb = c2d_compound_of(b);
    int n = cb->n + ca->n, best = -1;
    c2d_contact *cand = (c2d_contact *)malloc((size_t)n * sizeof *cand);
    pair_move *moves = (pair_move *)malloc(((size_t)n * (size_t)(n + 1) / 2) * sizeof *moves);
    c2d_status st = C2D_OK;
    memset(out, 0, sizeof *out);
    c2d_shape **moved = (c2d_shape **)calloc((size_t)cb->n, sizeof *moved);
    int *near = (int *)malloc(((size_t)ca->n + (size_t)cb->n) * sizeof *near);
    if (!cand || !moves || !moved || !near) {
        free(cand);
        free(moves);
        free(moved);
        free(near);
        return C2D_ERR_NO_MEMORY;
    }
    for (int k = 0; k < n && st == C2D_OK; k++) {
        if (k < cb->n) {
            st = compound_convex_contact(a, cb->part[k], &cand[k]);
        } else {
            st = compound_convex_contact(b, ca->part[k - cb->n], &cand[k]);
            flip_contact(&cand[k]); /* pushing a's part out of b is moving b the other way */
        }
        if (st == C2D_OK && cand[k].count > 0 && (best < 0 || cand[k].depth > cand[best].depth))
            best = k;
    }
    if (st != C2D_OK || best < 0 || !(cand[best].depth > 0)) {
        if (st == C2D_OK && best >= 0)
            *out = cand[best]; /* touching only */
        free(cand);
        free(moves);
        free(moved);
        free(near);
        return st;
    }
    /* A lower bound on the answer: any move that clears the union clears each pair of parts, so it is
     * at least as long as the deepest pair's own minimum translation. */
    double bound = 0;
    for (int j = 0; j < cb->n && st == C2D_OK; j++) {
        st = c2d_shape_clone(cb->part[j], &moved[j]);
        for (int i = 0; i < ca->n && st == C2D_OK; i++) {
            c2d_contact c;
            st = c2d_convex_collide(ca->part[i], cb->part[j], &c);
            if (st == C2D_OK && c.count > 0 && c.depth > bound)
                bound = c.depth;
        }
    }
    double scale = fabs(a->pos.x) + fabs(a->pos.y) + fabs(b->pos.x) + fabs(b->pos.y) + a->reach + b->reach +
                   cand[best].depth;
    double tol = 1e-10 * scale;
    int thin = a->type == C2D_SHAPE_CHAIN || b->type == C2D_SHAPE_CHAIN;
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (cand[i].count == 0 || !(cand[i].depth > 0))
            continue;
        c2d_vec2 ni = cand[i].normal;
        double di = cand[i].depth;
        if (di >= bound * (1 - 1e-12)) {
            moves[m].t = v2_scale(ni, di);
            moves[m].len = di;
            moves[m].from = i;
            m++;
        }
        for (int j = i + 1; j < n; j++) {
            if (cand[j].count == 0 || !(cand[j].depth > 0))
                continue;
            c2d_vec2 nj = cand[j].normal;
            double dj = cand[j].depth, det = ni.x * nj.y - ni.y * nj.x;
            if (!(fabs(det) > 1e-9))
                continue; /* (nearly) parallel faces meet at no corner */
            c2d_vec2 t = v2((di * nj.y - dj * ni.y) / det, (ni.x * dj - nj.x * di) / det);
            double len = v2_len_safe(t);
            if (!(len >= bound * (1 - 1e-12)) || !(len <= 4 * scale))
                continue; /* shorter than a pair of parts needs, or far off (faces nearly parallel) */
            moves[m].t = t;
            moves[m].len = len;
            moves[m].from = di >= dj ? i : j;
            m++;
        }
    }
    qsort(moves, (size_t)m, sizeof *moves, compare_move);
    int found = -1;
    for (int k = 0; k < m && st == C2D_OK && found < 0; k++) {
        int caught = 0;
        st = caught_after(a, b, moved, near, moves[k].t, tol, &caught);
        if (st == C2D_OK && !caught)
            found = k;
    }
    if (st == C2D_OK && found >= 0) {
        /* The move found clears every part, but when the true minimum is none of the moves tried it
         * may go farther than touching: along its direction, as far as clears every part, is then
         * shorter. But never shorter than the deepest pair of parts needs (bound): clear_along sweeps
         * each part back from far along u, at the touching tolerance of that long lead-in, coarser
         * than the parts' own; parts overlapping by less than it came back 'clear' where they stand,
         * and a pair 1e10 across, its parts 0.027 deep, got a contact of depth 0 (and a sweep starting
         * there OVERLAP with depth 0). */
        c2d_vec2 u = v2_scale(moves[found].t, 1 / moves[found].len);
        double len = moves[found].len, along = len;
        st = clear_along(a, b, moved, u, &along);
        if (st == C2D_OK && thin && along < len * (1 - 1e-9)) {
            /* (A chain's segment may stop short there: the first place on from it where nothing is
             * caught, see verified_along; the move found itself, failing that.) */
            double v = -1;
            st = verified_along(a, b, moved, near, u, along, tol, &v);
            along = v >= 0 && v < len ? v : len;
        }
        if (st == C2D_OK && thin && !(along < len * (1 - 1e-9)))
            st = back_to_touch(a, b, moved, near, u, len, tol, &along);
        *out = cand[moves[found].from];
        out->depth = along < len * (1 - 1e-9) ? (along > bound ? along : bound) : len;
        out->normal = u;
    } else if (st == C2D_OK) {
        double least = INFINITY, unsure = INFINITY;
        int pick = best, unsure_pick = best;
        for (int k = 0; k < n && st == C2D_OK; k++) {
            if (cand[k].count == 0 || !(cand[k].depth > 0))
                continue;
            double sk = 0, vk = 0;
            st = clear_along(a, b, moved, cand[k].normal, &sk);
            if (st == C2D_OK && thin) {
                /* The least of the directions where a chain is sure to come clear; failing all, as
                 * clear_along says. */
                if (sk < unsure) {
                    unsure = sk;
                    unsure_pick = k;
                }
                st = verified_along(a, b, moved, near, cand[k].normal, fmax(sk, cand[k].depth), tol, &vk);
                sk = vk < 0 ? INFINITY : vk;
            }
            if (st == C2D_OK && sk < least) {
                least = sk;
                pick = k;
            }
        }
        if (st == C2D_OK && least == INFINITY) {
            least = unsure;
            pick = unsure_pick;
        }
        if (st == C2D_OK) {
            *out = cand[pick];
            out->depth = least > cand[pick].depth ? least : cand[pick].depth;
        }
    }
    if (st == C2D_OK)
        for (int i = 0; i < out->count; i++)
            out->point_depths[i] = out->point_depths[i] < out->depth ? out->point_depths[i] : out->depth;
    for (int j = 0; j < cb->n; j++)
        c2d_shape_destroy(moved[j]);
    free(cand);
    free(moves);
    free(moved);
    free(near);
    return st;
}

c2d_status c2d_compound_collide(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    if (!c2d_is_compound(a)) {
        c2d_status st = c2d_compound_collide(b, a, out);
        if (st == C2D_OK)
            flip_contact(out);
        return st;
    }
    if (!c2d_is_compound(b))
        return compound_convex_contact(a, b, out);
    if (compound_second_first(a, b)) {
        c2d_status st = compound_pair_contact(b, a, out);
        if (st == C2D_OK)
            flip_contact(out);
        return st;
    }
    return compound_pair_contact(a, b, out);
}

c2d_status c2d_compound_distance(const c2d_shape *a, const c2d_shape *b, c2d_distance_result *out)
{
    if (c2d_is_compound(a) && c2d_is_compound(b) && compound_second_first(a, b)) {
        /* Two compounds in their fixed order, as their contact is: the same both ways round. */
        c2d_status st = c2d_compound_distance(b, a, out);
        if (st == C2D_OK) {
            c2d_vec2 p = out->point_a;
            out->point_a = out->point_b;
            out->point_b = p;
            out->normal = v2_neg(out->normal);
        }
        return st;
    }
    int hit = 0;
    c2d_status st = c2d_compound_overlap(a, b, &hit);
    if (st != C2D_OK)
        return st;
    if (hit) {
        c2d_contact c;
        if ((st = c2d_compound_collide(a, b, &c)) != C2D_OK)
            return st;
        out->distance = -c.depth;
        out->normal = c.count > 0 ? c.normal : v2(0, 1);
        c2d_vec2 mid = c.count > 0 ? c.points[0] : a->pos;
        out->point_a = v2_mad(mid, 0.5 * c.depth, out->normal);
        out->point_b = v2_mad(mid, -0.5 * c.depth, out->normal);
        return C2D_OK;
    }
    /* Apart: the nearest pair of parts. */
    const c2d_shape *const *pa = &a, *const *pb = &b;
    int na = 1, nb = 1;
    if (c2d_is_compound(a)) {
        pa = (const c2d_shape *const *)c2d_compound_of(a)->part;
        na = c2d_compound_of(a)->n;
    }
    if (c2d_is_compound(b)) {
        pb = (const c2d_shape *const *)c2d_compound_of(b)->part;
        nb = c2d_compound_of(b)->n;
    }
    int found = 0;
    for (int i = 0; i < na; i++)
        for (int j = 0; j < nb; j++) {
            c2d_distance_result r;
            if ((st = c2d_convex_distance(pa[i], pb[j], &r)) != C2D_OK)
                return st;
            if (!found || r.distance < out->distance) {
                *out = r;
                found = 1;
            }
        }
    return C2D_OK;
}

/* The sweep of convex b (moving by db) against compound a (moving by da). */
static c2d_status compound_convex_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db,
                                        c2d_toi *out)
{
    const c2d_compound *c = c2d_compound_of(a);
    c2d_shape *lb = carry(a, b);
    if (!lb)
        return C2D_ERR_NO_MEMORY;
    c2d_xf x = c2d_shape_xf(a);
    c2d_vec2 rel = c2d_unrotate(x, v2_sub(db, da));
    c2d_toi t;
    int index;
    c2d_status st;
    double longest = fmax(fabs(rel.x), fabs(rel.y));
    if (longest <= C2D_MAX_COORDINATE) {
        st = c2d_static_set_sweep(c->set, lb, rel, &t, &index);
    } else {
        /* Each motion is within range, their difference may be twice that, and a pair's contact sweeps
         * parts back from farther still (clear_along, for shapes that reach the coordinate limit): the
         * set's sweep takes it in n equal pieces within range (the motion is straight, so each piece
         * starts where the one before ends). Two halves when the motion is at most twice the range. */
        int n = longest <= 2 * C2D_MAX_COORDINATE ? 2 : (int)ceil(longest / C2D_MAX_COORDINATE);
        c2d_vec2 piece = v2_scale(rel, 1.0 / n);
        st = c2d_static_set_sweep(c->set, lb, piece, &t, &index);
        if (st == C2D_OK && t.state == C2D_TOI_HIT)
            t.t /= n;
        for (int k = 1; k < n && st == C2D_OK && t.state == C2D_TOI_NONE; k++) {
            c2d_shape_place(lb, v2_add(lb->pos, piece), lb->angle, lb->c, lb->s);
            st = c2d_static_set_sweep(c->set, lb, piece, &t, &index);
            if (st == C2D_OK && t.state != C2D_TOI_NONE) {
                t.state = C2D_TOI_HIT; /* an overlap where a piece begins is met there */
                t.t = (k + t.t) / n;
                t.depth = 0;
            }
        }
    }
    c2d_shape_destroy(lb);
    if (st != C2D_OK)
        return st;
    if (t.state != C2D_TOI_NONE) {
        /* The set's normal runs from the mover (b) to the set: a's runs to b. The point moves with a. */
        t.normal = v2_neg(c2d_rotate(x, t.normal));
        t.point = v2_mad(c2d_xf_apply(x, t.point), t.t, da);
    }
    *out = t;
    return C2D_OK;
}

/* The sweep of compound a against b, and for shapes that overlap at the start, their contact: the
 * set sweeps behind it report the deepest part's overlap, where the promise is the whole shape's
 * (moving B by depth * normal separates them). */
static c2d_status compound_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, c2d_toi *out);

c2d_status c2d_compound_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, c2d_toi *out)
{
    c2d_status st = compound_sweep(a, da, b, db, out);
    if (st != C2D_OK || out->state != C2D_TOI_OVERLAP)
        return st;
    c2d_contact c;
    if ((st = c2d_compound_collide(a, b, &c)) != C2D_OK)
        return st;
    /* The parts' sweep found one deeper than touching, so the whole shape's contact has a depth: a
     * part's push out of the other shape's set decides touching as the set's sweep does, at a
     * tolerance no larger (the sweep's scale takes in the motion too), and a pair's contact is no
     * shorter than its deepest pair of parts. (It once kept the parts' answer where the whole-shape
     * push came out 0: push-out called exits up to 4 tolerances deep free.) */
    if (c.count > 0) {
        int deepest = c.count > 1 && c.point_depths[1] > c.point_depths[0];
        out->normal = c.normal;
        out->depth = c.depth;
        out->point = c.points[deepest];
    }
    return C2D_OK;
}

static c2d_status compound_sweep(const c2d_shape *a, c2d_vec2 da, const c2d_shape *b, c2d_vec2 db, c2d_toi *out)
{
    if (!c2d_is_compound(a)) {
        c2d_status st = compound_sweep(b, db, a, da, out);
        if (st == C2D_OK && out->state != C2D_TOI_NONE)
            out->normal = v2_neg(out->normal);
        return st;
    }
    if (!c2d_is_compound(b))
        return compound_convex_sweep(a, da, b, db, out);
    /* Two compounds: the earliest of b's parts (an overlap first, the deepest of those). */
    const c2d_compound *cb = c2d_compound_of(b);
    c2d_toi best;
    memset(&best, 0, sizeof best);
    best.t = 1;
    for (int k = 0; k < cb->n; k++) {
        c2d_toi t;
        c2d_status st = compound_convex_sweep(a, da, cb->part[k], db, &t);
        if (st != C2D_OK)
            return st;
        int better = best.state == C2D_TOI_NONE ? t.state != C2D_TOI_NONE
                     : t.state == C2D_TOI_OVERLAP ? best.state != C2D_TOI_OVERLAP || t.depth > best.depth
                                                  : best.state == C2D_TOI_HIT && t.state == C2D_TOI_HIT && t.t < best.t;
        if (better)
            best = t;
    }
    *out = best;
    return C2D_OK;
}

/* ---- parts ---- */

c2d_status c2d_shape_get_part_count(const c2d_shape *shape, int *out)
{
    if (!shape || !out)
        return C2D_ERR_NULL;
    *out = c2d_is_compound(shape) ? c2d_compound_of(shape)->n : 1;
    return C2D_OK;
}

c2d_status c2d_shape_get_part_vertices(const c2d_shape *shape, int k, c2d_vec2 *out, int capacity, int *count)
{
    if (!shape || !count)
        return C2D_ERR_NULL;
    int n = c2d_is_compound(shape) ? c2d_compound_of(shape)->n : 1;
    if (k < 0 || k >= n)
        return C2D_ERR_RANGE;
    return c2d_shape_get_vertices(c2d_is_compound(shape) ? c2d_compound_of(shape)->part[k] : shape, out, capacity,
                                  count);
}
