/* ops_setquery.c - a static set's queries (op 56: c2d_static_set_query_aabb, _query_point,
 * _query_shape, c2d_static_set_raycast, _raycast_all), checked against brute force over the set's
 * shapes: the header promises that each answer is the public call's (c2d_contains_point, c2d_overlap,
 * c2d_raycast) on the set's own copy of each enabled shape (c2d_static_set_get_shape), where it stands
 * now (motions ignored), in index order (rays by t, ties by index), so the point, shape and ray answers
 * are compared exactly. A box is asked of a probe the library builds itself; the harness's own box is
 * compared exactly where the box has no area (a point, c2d_contains_point; a segment, the same
 * c2d_segment_new) and else up to rounding of touching, and a shape whose own box lies inside the box
 * is always found. Bad input (NULL, numbers not finite or out of range, a box with min > max, a zero
 * direction, a negative max_t or capacity) is refused with the status of one of its faults and writes
 * neither the hits nor the count; a capacity too small is C2D_ERR_CAPACITY with the count and no hit
 * written; NULL with capacity 0 asks for the count only. */
#include "fz.h"

#define FZ_Q_HITS (FZ_SET_MAX + 2)

/* The set's own copy of shape i; it must stand where the harness's copy stands (the same box, to the
 * bit), so that the harness's model of the set and the set agree on what is asked. */
static const c2d_shape *fz_set_own(const fz_state *st, int i)
{
    const c2d_shape *s = NULL;
    FZ_CHECK(c2d_static_set_get_shape(st->set, i, &s) == C2D_OK && s, "get_shape(%d) failed", i);
    c2d_aabb a, b;
    FZ_CHECK(c2d_shape_get_aabb(s, &a) == C2D_OK && c2d_shape_get_aabb(st->set_shape[i], &b) == C2D_OK &&
                 memcmp(&a, &b, sizeof a) == 0 && c2d_shape_get_type(s) == c2d_shape_get_type(st->set_shape[i]),
             "the set's own copy of shape %d is not where the harness's copy stands", i);
    return s;
}

/* The faults of a call, as a mask of the statuses each names (1 << status). */
static unsigned fz_fault(c2d_status s)
{
    return s == C2D_OK ? 0u : 1u << (unsigned)s;
}

/* The harness's box as a shape where it has area (a rectangle, or the same four corners as a polygon
 * when the size is beyond what c2d_rect_new takes); NULL where it cannot be made. */
static c2d_shape *fz_box_shape(c2d_aabb box)
{
    c2d_shape *s = NULL;
    double w = box.max.x - box.min.x, h = box.max.y - box.min.y;
    c2d_vec2 corners[4] = {box.min, fz_v(box.max.x, box.min.y), box.max, fz_v(box.min.x, box.max.y)};
    if (c2d_rect_new(0.5 * (box.min.x + box.max.x), 0.5 * (box.min.y + box.max.y), w, h, 0, &s) != C2D_OK &&
        c2d_polygon_new(corners, 4, &s) != C2D_OK)
        s = NULL;
    return s;
}

/* What the brute force says of shape s for the query: 1 found, 0 not, -1 either (the box within
 * rounding of touching it), -2 not known (the pair call failed: out of memory). */
static int fz_q_want(int kind, const c2d_shape *s, c2d_aabb box, c2d_vec2 p, const c2d_shape *probe)
{
    int in = 0;
    if (kind == 1 || (kind == 0 && box.min.x == box.max.x && box.min.y == box.max.y)) {
        if (c2d_contains_point(s, kind == 1 ? p : box.min, &in) != C2D_OK)
            return -2;
        return in;
    }
    if (kind == 2 || (kind == 0 && (box.min.x == box.max.x || box.min.y == box.max.y))) {
        if (!probe || c2d_overlap(probe, s, &in) != C2D_OK)
            return -2;
        return in;
    }
    /* A box with area: whatever lies inside it is found; else the harness's box, up to rounding. */
    c2d_aabb b;
    c2d_shape_get_aabb(s, &b);
    if (box.min.x <= b.min.x && box.min.y <= b.min.y && b.max.x <= box.max.x && b.max.y <= box.max.y)
        return 1;
    if (!probe)
        return -1;
    c2d_distance_result d;
    if (c2d_overlap(probe, s, &in) != C2D_OK || c2d_distance(probe, s, &d) != C2D_OK)
        return -1;
    double tol = FZ_REL_TOL * (1 + fmax(fz_shape_scale(s), fz_shape_scale(probe)));
    return fabs(d.distance) <= tol ? -1 : in;
}

/* Brute-force rays: every enabled shape's c2d_raycast with a finite t, by t and then index. */
typedef struct fz_ray_ref {
    int index;
    c2d_ray_hit ray;
} fz_ray_ref;

static int fz_brute_rays(const fz_state *st, c2d_vec2 o, c2d_vec2 d, double max_t, fz_ray_ref *out, int *known)
{
    int n = 0;
    *known = 1;
    for (int i = 0; i < st->set_n; i++) {
        const c2d_shape *s = fz_set_own(st, i);
        if (!st->set_on[i])
            continue;
        c2d_ray_hit h;
        memset(&h, 0, sizeof h);
        if (c2d_raycast(s, o, d, max_t, &h) != C2D_OK) {
            *known = 0;
            continue;
        }
        if (!h.hit || !(h.t < INFINITY))
            continue;
        int k = n++;
        /* Insertion by t, ties by index (indices come in order, so a tie stays behind). */
        while (k > 0 && out[k - 1].ray.t > h.t) {
            out[k] = out[k - 1];
            k--;
        }
        out[k].index = i;
        out[k].ray = h;
    }
    return n;
}

static int fz_ray_same(const c2d_ray_hit *a, const c2d_ray_hit *b)
{
    return a->hit == b->hit && fz_same_bits(a->t, b->t) && fz_same_bits(a->point.x, b->point.x) &&
           fz_same_bits(a->point.y, b->point.y) && fz_same_bits(a->normal.x, b->normal.x) &&
           fz_same_bits(a->normal.y, b->normal.y);
}

/* The three list queries (kind 0 box, 1 point, 2 shape). */
static void fz_set_list_query(fz_state *st, int kind, uint8_t mode)
{
    c2d_aabb box;
    memset(&box, 0, sizeof box);
    c2d_vec2 p = fz_v(0, 0);
    const c2d_shape *probe = NULL;
    uint8_t pick = fz_byte(st);
    int member = st->set_n > 0 ? pick % st->set_n : -1;
    if (kind == 0) {
        if ((pick & 0x80) && member >= 0) {
            /* A member's own box, maybe grown or shrunk: shapes that touch it exactly, and the shape
             * inside it. */
            c2d_shape_get_aabb(st->set_shape[member], &box);
            double g = (pick & 0x40) ? fz_number(st) : 0.0;
            box.min = fz_v(box.min.x - g, box.min.y - g);
            box.max = fz_v(box.max.x + g, box.max.y + g);
        } else {
            box.min = fz_vec(st);
            c2d_vec2 size = fz_vec(st);
            box.max = fz_v(box.min.x + size.x, box.min.y + size.y);
        }
    } else if (kind == 1) {
        p = fz_vec(st);
        if ((pick & 0x80) && member >= 0) {
            /* On a member's boundary: one of its vertices, or its position. */
            c2d_vec2 v[FZ_MAX_VERTS];
            int n = 0;
            if (c2d_shape_get_vertices(st->set_shape[member], v, FZ_MAX_VERTS, &n) == C2D_OK && n > 0)
                p = v[(pick >> 1) % (unsigned)n];
            else
                c2d_shape_get_position(st->set_shape[member], &p);
        }
    } else {
        probe = st->slot[fz_slot(st)];
        if ((pick & 0x80) && member >= 0)
            probe = st->set_shape[member]; /* the member's own copy finds itself when enabled */
    }
    int cap = (int)(fz_byte(st) % (FZ_Q_HITS + 3)) - 2;
    int null_out = (mode & 0x10) != 0, null_count = (mode & 0x20) != 0, null_set = (mode & 0x40) != 0;
    const c2d_static_set *set = null_set ? NULL : st->set;
    c2d_set_hit h[FZ_Q_HITS];
    int count;
    memset(h, FZ_POISON, sizeof h);
    memset(&count, FZ_POISON, sizeof count);
    c2d_status s = kind == 0   ? c2d_static_set_query_aabb(set, box, null_out ? NULL : h, cap, null_count ? NULL : &count)
                   : kind == 1 ? c2d_static_set_query_point(set, p, null_out ? NULL : h, cap, null_count ? NULL : &count)
                               : c2d_static_set_query_shape(set, probe, null_out ? NULL : h, cap,
                                                            null_count ? NULL : &count);
    fz_check_status(s);
    unsigned faults = 0;
    if (!set || null_count || (null_out && cap > 0) || (kind == 2 && !probe))
        faults |= fz_fault(C2D_ERR_NULL);
    if (cap < 0)
        faults |= fz_fault(C2D_ERR_RANGE);
    if (kind == 0) {
        faults |= fz_fault(fz_vec_status(box.min)) | fz_fault(fz_vec_status(box.max));
        if (box.min.x > box.max.x || box.min.y > box.max.y)
            faults |= fz_fault(C2D_ERR_RANGE);
    } else if (kind == 1) {
        faults |= fz_fault(fz_vec_status(p));
    }
    const char *what = kind == 0 ? "query_aabb" : kind == 1 ? "query_point" : "query_shape";
    if (fz_trace)
        fprintf(stderr, " -> set %s: %d count %d (capacity %d, faults %#x)", what, (int)s, s == C2D_OK ? count : -1,
                cap, faults);
    if (faults || s == C2D_ERR_NO_MEMORY) {
        FZ_CHECK(s == C2D_ERR_NO_MEMORY || (fz_fault(s) & faults),
                 "set %s gave %d, which names none of its faults (%#x)", what, (int)s, faults);
        FZ_CHECK(fz_is_poison(h, sizeof h) && fz_is_poison(&count, sizeof count), "refused set %s wrote", what);
        return;
    }
    FZ_CHECK(s == C2D_OK || s == C2D_ERR_CAPACITY, "set %s gave %d", what, (int)s);
    FZ_CHECK(count >= 0 && count <= st->set_n, "set %s count %d of %d shapes", what, count, st->set_n);
    int count_only = null_out && cap == 0;
    FZ_CHECK((s == C2D_ERR_CAPACITY) == (!count_only && count > cap), "set %s gave %d with count %d and capacity %d",
             what, (int)s, count, cap);
    /* The hits (found by asking for them with room, when this call had none). */
    c2d_set_hit all[FZ_Q_HITS];
    int n = count;
    if (s == C2D_OK && !count_only) {
        memcpy(all, h, sizeof all);
        FZ_CHECK(fz_is_poison(h + count, sizeof h - (size_t)count * sizeof h[0]), "set %s wrote past its count", what);
    } else {
        FZ_CHECK(fz_is_poison(h, sizeof h), "set %s short of room (or asked for the count) wrote hits", what);
        int n2 = -1;
        c2d_status s2 = kind == 0   ? c2d_static_set_query_aabb(set, box, all, FZ_Q_HITS, &n2)
                        : kind == 1 ? c2d_static_set_query_point(set, p, all, FZ_Q_HITS, &n2)
                                    : c2d_static_set_query_shape(set, probe, all, FZ_Q_HITS, &n2);
        if (s2 == C2D_ERR_NO_MEMORY)
            return;
        FZ_CHECK(s2 == C2D_OK && n2 == count, "set %s with room gave %d and %d hits, the count was %d", what, (int)s2,
                 n2, count);
    }
    /* Against every shape of the set, in index order. */
    c2d_shape *box_probe = NULL;
    if (kind == 0 && box.min.x != box.max.x && box.min.y != box.max.y)
        box_probe = fz_box_shape(box);
    else if (kind == 0 && (box.min.x != box.max.x || box.min.y != box.max.y) &&
             c2d_segment_new(box.min, box.max, &box_probe) != C2D_OK)
        box_probe = NULL;
    int k = 0;
    for (int i = 0; i < st->set_n; i++) {
        const c2d_shape *own = fz_set_own(st, i);
        int found = k < n && all[k].index == i;
        if (found) {
            FZ_CHECK(all[k].user == st->set_user[i], "set %s hit %d (shape %d) has user %llu, not %llu", what, k, i,
                     (unsigned long long)all[k].user, (unsigned long long)st->set_user[i]);
            k++;
        }
        if (!st->set_on[i]) {
            FZ_CHECK(!found, "set %s found disabled shape %d", what, i);
            continue;
        }
        int want = fz_q_want(kind, own, box, p, kind == 2 ? probe : box_probe);
        if (want < 0)
            continue;
        FZ_CHECK(found == want, "set %s %s shape %d (kind %d)%s", what, want ? "missed" : "found", i,
                 (int)c2d_shape_get_type(own), kind == 0 ? " (the box's exact answer)" : ", not what the pair call says");
    }
    c2d_shape_destroy(box_probe);
    FZ_CHECK(k == n, "set %s hits out of index order or naming no shape (%d of %d matched)", what, k, n);
}

/* The ray casts (kind 3 first hit, 4 every hit). */
static void fz_set_ray_query(fz_state *st, int kind, uint8_t mode)
{
    c2d_vec2 o = fz_vec(st), d;
    uint8_t aim = fz_byte(st);
    if ((aim & 0x80) && st->set_n > 0) {
        /* Aimed at a vertex (or the position) of a member: a ray through its corner. */
        int i = aim % st->set_n;
        c2d_vec2 v[FZ_MAX_VERTS], t;
        int n = 0;
        if (c2d_shape_get_vertices(st->set_shape[i], v, FZ_MAX_VERTS, &n) == C2D_OK && n > 0)
            t = v[(aim >> 1) % (unsigned)n];
        else
            c2d_shape_get_position(st->set_shape[i], &t);
        d = fz_sub(t, o);
    } else {
        d = fz_vec(st);
    }
    double max_t;
    switch (((mode >> 3) & 1) | ((mode >> 6) & 2)) {
    case 0:
        max_t = 1;
        break;
    case 1:
        max_t = INFINITY;
        break;
    default:
        max_t = fz_number(st);
        break;
    }
    int cap = kind == 4 ? (int)(fz_byte(st) % (FZ_Q_HITS + 3)) - 2 : 1;
    int null_out = (mode & 0x10) != 0, null_count = kind == 4 && (mode & 0x20) != 0, null_set = (mode & 0x40) != 0;
    const c2d_static_set *set = null_set ? NULL : st->set;
    c2d_set_ray_hit h[FZ_Q_HITS];
    int count;
    memset(h, FZ_POISON, sizeof h);
    memset(&count, FZ_POISON, sizeof count);
    c2d_status s = kind == 3 ? c2d_static_set_raycast(set, o, d, max_t, null_out ? NULL : h)
                             : c2d_static_set_raycast_all(set, o, d, max_t, null_out ? NULL : h, cap,
                                                          null_count ? NULL : &count);
    fz_check_status(s);
    unsigned faults = fz_fault(fz_vec_status(o)) | fz_fault(fz_vec_status(d));
    if (!set || null_count || (null_out && (kind == 3 || cap > 0)))
        faults |= fz_fault(C2D_ERR_NULL);
    if (cap < 0)
        faults |= fz_fault(C2D_ERR_RANGE);
    if (isnan(max_t))
        faults |= fz_fault(C2D_ERR_NOT_FINITE);
    else if (max_t < 0)
        faults |= fz_fault(C2D_ERR_RANGE);
    if (d.x == 0 && d.y == 0)
        faults |= fz_fault(C2D_ERR_DEGENERATE);
    const char *what = kind == 3 ? "raycast" : "raycast_all";
    if (fz_trace)
        fprintf(stderr, " -> set %s max_t %.17g: %d count %d (capacity %d, faults %#x)", what, max_t, (int)s,
                s == C2D_OK && kind == 4 ? count : -1, cap, faults);
    if (faults || s == C2D_ERR_NO_MEMORY) {
        FZ_CHECK(s == C2D_ERR_NO_MEMORY || (fz_fault(s) & faults),
                 "set %s gave %d, which names none of its faults (%#x)", what, (int)s, faults);
        FZ_CHECK(fz_is_poison(h, sizeof h) && fz_is_poison(&count, sizeof count), "refused set %s wrote", what);
        return;
    }
    static fz_ray_ref want[FZ_SET_MAX];
    int known;
    int nw = fz_brute_rays(st, o, d, max_t, want, &known);
    if (kind == 3) {
        FZ_CHECK(s == C2D_OK, "set raycast gave %d", (int)s);
        FZ_CHECK(fz_is_poison(h + 1, sizeof h - sizeof h[0]) && fz_is_poison(&count, sizeof count),
                 "set raycast wrote past its answer");
        if (!h[0].ray.hit) {
            c2d_set_ray_hit z;
            memset(&z, 0, sizeof z);
            z.index = -1;
            FZ_CHECK(h[0].index == -1 && h[0].user == 0 && memcmp(&h[0].ray, &z.ray, sizeof z.ray) == 0,
                     "set raycast miss: index %d, the rest not zero", h[0].index);
        }
        if (!known)
            return;
        FZ_CHECK(nw == 0 ? !h[0].ray.hit
                         : h[0].ray.hit == 1 && h[0].index == want[0].index && fz_ray_same(&h[0].ray, &want[0].ray) &&
                               h[0].user == st->set_user[want[0].index],
                 "set raycast hit %d shape %d at t %.17g, brute force %s shape %d at t %.17g", h[0].ray.hit,
                 h[0].index, h[0].ray.t, nw ? "hits" : "misses", nw ? want[0].index : -1, nw ? want[0].ray.t : -1.0);
        return;
    }
    FZ_CHECK(s == C2D_OK || s == C2D_ERR_CAPACITY, "set raycast_all gave %d", (int)s);
    int count_only = null_out && cap == 0;
    FZ_CHECK(count >= 0 && count <= st->set_n && (s == C2D_ERR_CAPACITY) == (!count_only && count > cap),
             "set raycast_all gave %d with count %d and capacity %d", (int)s, count, cap);
    if (s != C2D_OK || count_only)
        FZ_CHECK(fz_is_poison(h, sizeof h), "set raycast_all short of room (or asked for the count) wrote hits");
    else
        FZ_CHECK(fz_is_poison(h + count, sizeof h - (size_t)count * sizeof h[0]), "set raycast_all wrote past its count");
    if (!known)
        return;
    FZ_CHECK(count == nw, "set raycast_all counts %d hits, brute force %d", count, nw);
    for (int k = 0; s == C2D_OK && !count_only && k < count; k++)
        FZ_CHECK(h[k].index == want[k].index && h[k].user == st->set_user[want[k].index] &&
                     fz_ray_same(&h[k].ray, &want[k].ray),
                 "set raycast_all hit %d: shape %d at t %.17g, brute force shape %d at t %.17g", k, h[k].index,
                 h[k].ray.t, want[k].index, want[k].ray.t);
}

/* op set_query: one of the five queries of the static set (or of no set), with the bad inputs above
 * and arrays short of room; then the same set is as it was. */
void op_set_query(fz_state *st)
{
    uint8_t mode = fz_byte(st);
    int kind = (mode & 7) % 5;
    if (!st->set)
        mode |= 0x40; /* no set: the NULL set, whatever else */
    fz_set_snap before, after;
    fz_set_snapshot(st, &before);
    if (kind < 3)
        fz_set_list_query(st, kind, mode);
    else
        fz_set_ray_query(st, kind, mode);
    fz_set_snapshot(st, &after);
    FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a set query changed the set");
    if (st->set) {
        const c2d_shape *s = (const c2d_shape *)fz_sentinel();
        FZ_CHECK(c2d_static_set_get_shape(st->set, st->set_n, &s) == C2D_ERR_RANGE &&
                     c2d_static_set_get_shape(st->set, -1, &s) == C2D_ERR_RANGE && s == (const c2d_shape *)fz_sentinel() &&
                     (st->set_n == 0 || c2d_static_set_get_shape(st->set, 0, NULL) == C2D_ERR_NULL),
                 "get_shape out of range or to NULL accepted, or wrote");
    }
}
