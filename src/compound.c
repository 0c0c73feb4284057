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

/* The contact of compound a with convex b (normal from a to b): the push-out of b from a's set gives
 * the depth and the normal; the points are those of the part whose own contact agrees best with it.
 * The parts' contacts are taken in the world, as c2d_compound_overlap takes them, so that a contact
 * is found exactly when the shapes overlap. */
static c2d_status compound_convex_contact(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    const c2d_compound *c = c2d_compound_of(a);
    memset(out, 0, sizeof *out);
    c2d_shape *lb = carry(a, b);
    if (!lb)
        return C2D_ERR_NO_MEMORY;
    c2d_vec2 d;
    c2d_status st = c2d_static_set_push_out(c->set, lb, &d);
    c2d_shape_destroy(lb);
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

/* Whether compound b moved by d overlaps compound a deeper than tol, part against part: moved holds a
 * copy of each of b's parts, placed here. Every part pair at most touching is the union at most
 * touching (a move that clears the union clears each part, which is at least each pair's depth; and
 * parts that only touch share no inside). */
static c2d_status caught_after(const c2d_compound *ca, const c2d_compound *cb, c2d_shape **moved, c2d_vec2 d,
                               double tol, int *out)
{
    *out = 0;
    for (int j = 0; j < cb->n && !*out; j++) {
        const c2d_shape *q = cb->part[j];
        c2d_shape_place(moved[j], v2_add(q->pos, d), q->angle, q->c, q->s);
        for (int i = 0; i < ca->n && !*out; i++) {
            c2d_contact c;
            c2d_status st = c2d_convex_collide(ca->part[i], moved[j], &c);
            if (st != C2D_OK)
                return st;
            *out = c.count > 0 && c.depth > tol;
        }
    }
    return C2D_OK;
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
 * part), and the least of those is taken. */
static c2d_status compound_pair_contact(const c2d_shape *a, const c2d_shape *b, c2d_contact *out)
{
    const c2d_compound *ca = c2d_compound_of(a), *cb = c2d_compound_of(b);
    int n = cb->n + ca->n, best = -1;
    c2d_contact *cand = (c2d_contact *)malloc((size_t)n * sizeof *cand);
    pair_move *moves = (pair_move *)malloc(((size_t)n * (size_t)(n + 1) / 2) * sizeof *moves);
    c2d_status st = C2D_OK;
    memset(out, 0, sizeof *out);
    c2d_shape **moved = (c2d_shape **)calloc((size_t)cb->n, sizeof *moved);
    if (!cand || !moves || !moved) {
        free(cand);
        free(moves);
        free(moved);
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
        st = caught_after(ca, cb, moved, moves[k].t, tol, &caught);
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
        *out = cand[moves[found].from];
        out->depth = along < len * (1 - 1e-9) ? (along > bound ? along : bound) : len;
        out->normal = u;
    } else if (st == C2D_OK) {
        double least = INFINITY;
        int pick = best;
        for (int k = 0; k < n && st == C2D_OK; k++) {
            if (cand[k].count == 0 || !(cand[k].depth > 0))
                continue;
            double sk = 0;
            st = clear_along(a, b, moved, cand[k].normal, &sk);
            if (st == C2D_OK && sk < least) {
                least = sk;
                pick = k;
            }
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
