/* sweep.h - private interface of the swept-collision files (sweep.c, seams.c, staticset.c, and the
 * static-set engine's: engine.c, pushout.c, run.c, resolve.c).
 *
 * Every swept query reduces to one primitive: a point moving along a ray against a "rounded hull", a
 * convex core (1, 2 or more vertices, counter-clockwise) swollen by a radius. For a mover A and an
 * obstacle B the hull is the Minkowski difference core(B) - core(A) swollen by rA + rB, and the ray is
 * the relative displacement; for a ball it is simply B's core swollen by rB + the ball's radius. Each
 * hull vertex and edge remembers which feature of B (and of A) it came from, so that a hit can be
 * checked against B's seam information (a feature hidden inside the union of a static set is not
 * surface) and so that contact points can be placed on the real shapes.
 */
#ifndef C2D_SWEEP_H
#define C2D_SWEEP_H

#include "shape.h"

/* Touching tolerance, relative to 1 + the largest coordinate magnitude in play: far above rounding
 * (about 1e-16 relative) and far below anything a game can see. In play are the two shapes that meet
 * and their motions, never a third: a static set's motions take each member's own (see engine.h's
 * member_tol), so that a shape far away leaves the contacts near the origin as exact as without it. */
#define C2D_SWEEP_REL_TOL 1e-12
/* A motion counts as approaching a surface only when its normal part exceeds this fraction of its
 * length, so that a motion slid along a surface (normal part zero up to rounding) never re-hits it. */
#define C2D_SWEEP_DIR_TOL 1e-12
/* Tolerance on the sine of the angle when testing whether a normal lies in a cone. */
#define C2D_CONE_EPS 1e-12

/* A set of unit normal directions: empty, every direction, the arc from lo counter-clockwise to hi
 * (at most a half-turn; lo == hi is a single direction), or the two opposite single directions lo and
 * hi (C2D_CONE_RAYS): the surface normals where two surfaces of no thickness meet in line, as at the
 * joint of a chain's collinear segments, whose faces on both sides go on across it. */
typedef enum c2d_cone_kind { C2D_CONE_EMPTY = 0, C2D_CONE_ARC = 1, C2D_CONE_FULL = 2, C2D_CONE_RAYS = 3 } c2d_cone_kind;
typedef struct c2d_cone {
    c2d_cone_kind kind;
    c2d_vec2 lo, hi;
} c2d_cone;

int c2d_cone_contains(const c2d_cone *c, c2d_vec2 n);
c2d_cone c2d_cone_intersect(c2d_cone a, c2d_cone b);
/* The normal cone of vertex i of a core with the given edge normals (full for a 1-vertex core). */
c2d_cone c2d_core_vertex_cone(const c2d_vec2 *normals, int count, int i);

/* Seam information of one core of a static set: which edges and which corners are not surface.
 * ghost_edge[e] != 0 hides edge e; vcone[i] is the part of vertex i's normal cone that is surface of the
 * union (C2D_CONE_EMPTY hides the corner). Either pointer NULL means "all surface". */
typedef struct c2d_seam_info {
    const unsigned char *ghost_edge;
    const c2d_cone *vcone;
} c2d_seam_info;

/* A rounded hull. bvert/avert give, for each hull vertex, the vertex of B's and A's core it is the
 * difference of; NULL means the identity for B and vertex 0 for A (the ball case: A is one point). */
typedef struct c2d_rhull {
    int n;
    const c2d_vec2 *v;
    const c2d_vec2 *nrm; /* unit outward edge normals, n of them when n >= 2 */
    const int *bvert;
    const int *avert;
    double r;
} c2d_rhull;

/* A feature of a rounded hull that a ray hit or a point is closest to: edge k (from vertex k to k+1)
 * or vertex k. normal is the hull's outward unit normal there (B's surface normal, facing A). */
typedef struct c2d_rhull_hit {
    double t;
    c2d_vec2 normal;
    int k;
    int is_edge;
} c2d_rhull_hit;

/* Minkowski difference core(B) - core(A) of two counter-clockwise cores, written to v (with edge
 * normals in nrm and the feature maps in bvert/avert; each array holds bn + an entries). bnrm, B's
 * outward edge normals, gives the angle order of B's edges, which rounding cannot upset where B is
 * thinner than the spacing of doubles at its place; bnrm and anrm (A's, or NULL) also stand in for
 * hull normals that rounding of the placed vertices turned away from their edge's, and an edge of -A
 * whose normal anrm so gives is merged in order by that normal too. Returns the number of hull
 * vertices. */
int c2d_minkowski(const c2d_vec2 *bv, const c2d_vec2 *bnrm, int bn, const c2d_vec2 *av, const c2d_vec2 *anrm, int an,
                  c2d_vec2 *v, c2d_vec2 *nrm, int *bvert, int *avert);

/* First time t in [0, tmax] at which o + t d enters the rounded hull through a feature that is surface
 * (per seams; NULL means all). Returns 1 and fills *hit, or 0. The start must not be deeper inside
 * than tol (see c2d_rhull_signed_distance); within tol counts as touching. */
int c2d_rhull_cast(const c2d_rhull *h, const c2d_seam_info *seams, c2d_vec2 o, c2d_vec2 d, double tmax, double tol,
                   c2d_rhull_hit *hit);

/* Signed distance from p to the rounded hull's surface (negative inside) with the feature and its
 * outward normal in *feature (t unused). Seams are not consulted. */
double c2d_rhull_signed_distance(const c2d_rhull *h, c2d_vec2 p, c2d_rhull_hit *feature);

/* Whether the hull's feature with the given normal is surface according to B's seam information. */
int c2d_rhull_feature_is_surface(const c2d_rhull *h, const c2d_seam_info *seams, int k, int is_edge,
                                 c2d_vec2 normal);

/* The contact point of A (core av, radius ra, moved by ta) and B (core bv, radius rb, moved by tb) at a
 * hull feature: midway between the two surfaces along the normal, at the middle of the overlap of the
 * two features across it. */
c2d_vec2 c2d_rhull_contact_point(const c2d_rhull *h, const c2d_rhull_hit *f, const c2d_vec2 *bv, double rb,
                                 c2d_vec2 tb, const c2d_vec2 *av, double ra, c2d_vec2 ta);

/* The two ends of that overlap on A's core: *lo and *hi are the points of A's core feature (a vertex,
 * or its edge's line) at the least and the greatest coordinate of the overlap along (-n.y, n.x), n the
 * feature's normal. A's feature a vertex: both are that vertex, exactly. */
void c2d_rhull_contact_span(const c2d_rhull *h, const c2d_rhull_hit *f, const c2d_vec2 *bv, c2d_vec2 tb,
                            const c2d_vec2 *av, c2d_vec2 ta, c2d_vec2 *lo, c2d_vec2 *hi);

/* ---- seams.c: which features of a shape are hidden by the shapes touching it ---- */

/* A shape touching the one whose seams are computed, with the gap up to which they count as joined.
 * corner_only: it meets that shape at a corner only (two parts of one concave polygon with others
 * between them around a vertex both have): it cuts the cones of the corners it touches, as every shape
 * meeting there must, but it hides no edge. */
typedef struct c2d_seam_neighbour {
    const c2d_core *core;
    double tolerance;
    int corner_only;
} c2d_seam_neighbour;

/* Fills ghost_edge (one per edge of s) and vcone (one per vertex of s) from s's neighbours: an edge is
 * a seam when opposite, collinear edges of neighbours (not corner_only ones) cover it; a corner's cone
 * of surface normals is cut down to the normals every shape meeting there shares (empty where the
 * union is flat or concave). Shapes with a radius neither make nor get seams. */
void c2d_seams_compute(const c2d_core *s, const c2d_seam_neighbour *nb, int nn, unsigned char *ghost_edge,
                       c2d_cone *vcone);

/* ---- staticset.c: the static set handle, its grid, and the seam bookkeeping ---- */

/* What a grid query needs of one shape, in one place: its box, and the grid cell holding the box's
 * lower corner (where a shape spanning several cells is reported from), fixed when the grid is built
 * so that no query divides by the cell size per candidate. */
typedef struct c2d_set_entry {
    c2d_aabb box;
    int cx, cy;
} c2d_set_entry;

struct c2d_static_set {
    int n;
    c2d_core *core;         /* each shape's core as placed: the set never moves a shape */
    c2d_vec2 *placed;       /* the cores' vertices and normals (2 * offset[n] entries) */
    unsigned char *enabled;
    int *offset;            /* n + 1 offsets of each shape's entries in ghost and vcone (one per vertex) */
    unsigned char *ghost;   /* per edge: hidden seam */
    c2d_cone *vcone;        /* per vertex: surface normals of the union there */
    c2d_seam_neighbour *scratch; /* n entries, for recomputing one shape's seams without allocating */
    int auto_seams;         /* whether touching members join without being marked */
    double seam_tolerance;  /* the caller's tolerance for automatic seams, or 0: each pair's own */
    double max_tolerance;   /* largest tolerance given (the caller's, marked pairs'), for neighbour
                             * searches, which add the largest automatic one (search_margin) */
    double magnitude;       /* largest coordinate magnitude of the shapes as they stand */
    double built_magnitude; /* the same for the shapes as built (what re-placing cannot lower) */
    double extent;          /* largest width or height of a shape's box as they stand: how far a
                             * member can reach from where a query looks (see engine.c's c2d_engine_query) */
    double built_extent;    /* the same for the shapes as built */
    int max_count;          /* most core vertices of any shape */
    int pair_count, pair_capacity;
    int *pairs;             /* 2 per marked neighbour pair */
    double *pair_tolerance;
    /* Uniform grid: cell (x, y) lists the shapes whose boxes overlap it. */
    c2d_vec2 origin;
    double cell;
    int gw, gh;
    c2d_vec2 end;           /* origin + (gw, gh) * cell: the far corner of the grid */
    int *cell_start;        /* gw * gh + 1 */
    int *cell_items;
    c2d_set_entry *entries; /* n: what a query reads of each shape, side by side */
    double *box_tolerance;  /* n: c2d_sweep_tolerance of each entry's box magnitude: a member's own
                             * part of its touching tolerance (kept apart: the query reads entries) */
    /* Members re-placed, or given a velocity, since the set was built: they have left the grid (their
     * cells list -1 instead) and every query looks at them one by one, as few as a game moves (a
     * paddle, a platform). Ascending member indices. */
    int *loose;
    int loose_count;
    c2d_shape **local;      /* n private copies of the members as placed now, for re-placing them */
    c2d_vec2 *velocity;     /* NULL until a member gets one: per member, per unit of time */
    /* NULL until a member turns (c2d_static_set_set_motion); then per member its angular velocity
     * (radians per unit of time), the point it turns about where it stands now (spin_pivot, from its
     * caller's shape's pivot in that shape's own frame, pivot_local, one per caller's shape), and
     * how far its core reaches from that point, its radius included (spin_reach). */
    double *spin;
    c2d_vec2 *spin_pivot;
    double *spin_reach;
    c2d_vec2 *pivot_local;
    c2d_vec2 *one_way;      /* NULL until a member gets one: per member, a unit direction or zero */
    /* The caller's shapes: n_public of them. A chain or concave polygon joins as its convex parts, so
     * members are parts: owner[m] is member m's shape, first[i] .. first[i + 1] the members of shape
     * i, and user[i] a copy of a compound shape i (placed with it). All three NULL when every shape is
     * convex (members are the shapes). */
    int n_public;
    int *owner;
    int *first;
    c2d_shape **user;
    /* Per caller's shape: 1 while a one-sided chain's segments face their own right-hand sides (they
     * turn with it when it is re-placed); 0 once c2d_static_set_set_one_way gave it one direction. */
    unsigned char *own_faces;
    /* NULL until a caller's shape gets a user value (c2d_static_set_set_user); then one per caller's
     * shape, reported in the full contact records as a world entry's is. */
    uintptr_t *values;
    /* NULL, or the compound whose own set this is (compound.c): the members are its parts, in order,
     * and join as they meet in it (c2d_compound_meet), up to the rounding of placing them. */
    const c2d_compound *parts_of;
};

/* The caller's shape that member m is (a part of). */
static inline int c2d_static_set_owner(const c2d_static_set *set, int m)
{
    return set->owner ? set->owner[m] : m;
}

/* A member's velocity, angular velocity and one-way direction (zero when it has none). */
static inline c2d_vec2 c2d_static_set_velocity(const c2d_static_set *set, int i)
{
    return set->velocity ? set->velocity[i] : v2(0, 0);
}
static inline double c2d_static_set_spin(const c2d_static_set *set, int i)
{
    return set->spin ? set->spin[i] : 0.0;
}
static inline c2d_vec2 c2d_static_set_one_way(const c2d_static_set *set, int i)
{
    return set->one_way ? set->one_way[i] : v2(0, 0);
}

/* The user value of the caller's shape i (0 when it has none). */
static inline uintptr_t c2d_static_set_value(const c2d_static_set *set, int i)
{
    return set->values && i >= 0 && i < set->n_public ? set->values[i] : 0;
}

/* Calls visit(ctx, i) once for every enabled shape whose box overlaps box, in a fixed order; stops early
 * when visit returns nonzero. A member with a velocity counts with the box it sweeps over the time
 * horizon (0 for where the members stand now). */
typedef int (*c2d_set_visit)(void *ctx, int index);
void c2d_static_set_query(const c2d_static_set *set, c2d_aabb box, double horizon, c2d_set_visit visit,
                          void *ctx);

/* The seams shape i would have if only the shapes with solid[j] != 0 were in the set (a call whose
 * responses ignore or cross some shapes exposes the faces beside them). scratch holds set->n
 * neighbours; ghost and vcone hold one entry per vertex of shape i. Reads the set only. */
void c2d_static_set_seams_among(const c2d_static_set *set, int i, const unsigned char *solid,
                                c2d_seam_neighbour *scratch, unsigned char *ghost, c2d_cone *vcone);
/* Makes set, built from the parts of compound c in order (with no automatic seams), c's own: its
 * members join as they meet in c, and their seams are computed again. */
void c2d_static_set_join_parts(c2d_static_set *set, const c2d_compound *c);
/* Sets mark[i] = 1 for every enabled solid shape i that may share a seam with shape j. */
void c2d_static_set_mark_near(const c2d_static_set *set, int j, const unsigned char *solid, unsigned char *mark);

/* The seam information of shape i, for c2d_rhull_cast. */
static inline c2d_seam_info c2d_static_set_seam_info(const c2d_static_set *set, int i)
{
    c2d_seam_info info;
    info.ghost_edge = set->ghost + set->offset[i];
    info.vcone = set->vcone + set->offset[i];
    return info;
}

/* The touching tolerance for a scene whose coordinates have magnitude up to scale. */
static inline double c2d_sweep_tolerance(double scale)
{
    return C2D_SWEEP_REL_TOL * (1.0 + scale);
}

/* The larger of two numbers that are not NaN, as fmax returns it. A comparison, because fmax is a libm
 * call (it must ignore a NaN), and a few of them cost a ball step as much as its grid query. */
static inline double c2d_max_num(double a, double b)
{
    return a > b ? a : b;
}

/* Largest width or height of a box. */
static inline double c2d_aabb_extent(c2d_aabb b)
{
    return c2d_max_num(b.max.x - b.min.x, b.max.y - b.min.y);
}

/* Largest coordinate magnitude of a box (a shape's box is always finite). */
static inline double c2d_aabb_magnitude(c2d_aabb b)
{
    return c2d_max_num(c2d_max_num(fabs(b.min.x), fabs(b.min.y)), c2d_max_num(fabs(b.max.x), fabs(b.max.y)));
}

#endif
