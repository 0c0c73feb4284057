/* character.c - the character mover (c2d_static_set_move_character): a platformer's box or capsule
 * walking along walkable ground, sliding down steeper ground, stepping up steps and down onto the
 * ground, riding moving members, landing on and dropping through one-way members. It is made of the
 * engine's own parts over one engine per call: slide runs (c2d_engine_run, which sweeps moving members
 * over the call's time and pushes out a mover that starts inside) and casts along up or down, so it
 * never ends inside a solid member. Layer 4, sets: calls resolve.c (the mover), run.c and engine.c.
 *
 * Why casts of its own and not c2d_static_set_sweep: the looks down and up start where the walk
 * ended, not where the shape stands, and must see moving members where the call leaves them (the
 * engine's clock at 1, the leg taking no time), which only the engine's cast at an offset can. */
#include "character.h"
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include "trig.h"

/* Legs of a walk along lines of the ground after its first (each bend up or down starts one). */
#define WALK_LEGS 6
/* Looks down, at most, to find where the ground bends down under a walk. */
#define BEND_PROBES 12
/* How many touching widths above the ground a point of a bend may be found (see touches). */
#define BEND_TOUCH 16
/* Records that fit on the stack before the list grows to the heap. */
#define CHARACTER_RECORDS 16
/* Shapes whose drop-through responses fit on the stack. */
#define CHARACTER_RESPONSES 64

c2d_character_options c2d_character_options_default(void)
{
    c2d_character_options o;
    memset(&o, 0, sizeof o);
    o.up = v2(0, 1);
    o.max_slope = 0.8726646259971648; /* 50 degrees */
    o.snap_distance = 0;
    o.step_height = 0;
    o.drop_through = 0;
    return o;
}

/* One call's character: the engine and what the rules read. */
typedef struct character {
    engine e;
    c2d_vec2 up;       /* unit */
    double walkable;   /* cos(max_slope): ground whose normal . up is at least this is walkable */
    double touch;      /* how far a look down goes to find ground that touches */
    c2d_record_list list;
} character;

/* What a cast found: the member (-1: none), the fraction of the cast and the surface normal at it
 * (pointing to the mover). */
typedef struct look {
    int member;
    double t;
    c2d_vec2 normal;
    c2d_vec2 point; /* on the member's surface, in the world */
} look;

/* The cast of the mover from offset p along d among the solid members where they stand at the clock
 * (0: where the call found them; 1: where it leaves them), the cast taking no time. -1 when memory ran
 * out. */
static int cast(character *ch, c2d_vec2 p, c2d_vec2 d, double clock, look *out)
{
    engine *e = &ch->e;
    cast_ctx c;
    cross_init(&c);
    e->clock = clock;
    c.e = e;
    c.p = p;
    c.d = d;
    c.dur = 0;
    c.cross = 0;
    c.tmax = 1.0;
    c.index = -1;
    c.nx = 0;
    c2d_engine_query(e, mover_box(e->a, p, d, 0.0), c2d_cast_visit, &c);
    if (c.no_memory) {
        e->clock = 0;
        return -1;
    }
    out->member = c.index;
    out->t = c.index >= 0 ? c.hit.t : 1.0;
    out->normal = c.index >= 0 ? c.hit.normal : v2(0, 0);
    out->point = c.index >= 0 ? c2d_engine_contact_point(e, c.index, &c.hit, v2_mad(p, c.hit.t, d), clock, 0)
                              : v2(0, 0);
    e->clock = 0;
    return 0;
}

static int is_walkable(const character *ch, c2d_vec2 n)
{
    return v2_dot(n, ch->up) >= ch->walkable;
}

static int is_ceiling(const character *ch, c2d_vec2 n)
{
    return -v2_dot(n, ch->up) >= ch->walkable;
}

/* The direction along the ground of normal n (unit) that goes the way of h (across up). */
static c2d_vec2 along_ground(c2d_vec2 n, c2d_vec2 h)
{
    c2d_vec2 t = v2_right(n);
    return v2_dot(t, h) < 0 ? v2_neg(t) : t;
}

/* What the records [from, to) of the list met: flags, and the last walkable contact among them (its
 * index in the list, -1: none). */
static int met(const character *ch, int from, int to, int *ground)
{
    int flags = 0;
    *ground = -1;
    for (int k = from; k < to; k++) {
        c2d_vec2 n = ch->list.items[k].contact.normal;
        if (is_walkable(ch, n))
            *ground = k;
        else if (is_ceiling(ch, n))
            flags |= C2D_CHARACTER_CEILING;
        else
            flags |= C2D_CHARACTER_WALL;
    }
    return flags;
}

/* A slide run of the mover from *p by vel over the call (moving members swept), its contacts to the
 * list. */
static c2d_status run(character *ch, c2d_vec2 *p, c2d_vec2 vel, c2d_move_result *res)
{
    c2d_status st = c2d_engine_run(&ch->e, p, &vel, 1.0, 1.0, 0.0, res);
    if (st == C2D_OK && ch->list.no_memory)
        st = C2D_ERR_NO_MEMORY;
    return st;
}

/* A leg of a walk: a slide run of the mover from *p by vel, its contacts to the list. Meeting
 * something it cannot walk on (a wall, a step too high, a ceiling) it stops there and *flags says so:
 * a slide would take a round bottom up the corner of a step too high, or up ground too steep, a little
 * every call. Returns 1 when it stopped so, with *ground the list index of the last walkable contact
 * of the leg (-1: none). */
static c2d_status leg(character *ch, c2d_vec2 *p, c2d_vec2 vel, c2d_move_result *res, int *flags, int *ground,
                      int *stopped)
{
    int from = ch->list.count;
    c2d_status st = run(ch, p, vel, res);
    *stopped = 0;
    if (st != C2D_OK)
        return st;
    int f = met(ch, from, ch->list.count, ground);
    *flags |= f;
    if (f & (C2D_CHARACTER_WALL | C2D_CHARACTER_CEILING)) {
        for (int k = from; k < ch->list.count; k++)
            if (!is_walkable(ch, ch->list.items[k].contact.normal)) {
                *p = v2_sub(ch->list.items[k].position, ch->e.origin);
                ch->list.count = k + 1;
                break;
            }
        *stopped = 1;
    }
    return C2D_OK;
}

/* The unit normal n turned by angle a towards m (another unit normal, not parallel to n). */
static c2d_vec2 turn_towards(c2d_vec2 n, c2d_vec2 m, double a)
{
    c2d_vec2 w = v2_mad(m, -v2_dot(n, m), n);
    w = v2_scale(w, 1.0 / v2_len(w));
    double sn, cs;
    c2d_sincos(a, &sn, &cs);
    return v2_add(v2_scale(n, cs), v2_scale(w, sn));
}

/* A bend down of the contour from the line along t (normal n) through s0: the next line's normal m,
 * the angle phi between n and m, and a, how far along t from s0 the bend starts (its arc, for a round
 * mover, or its corner). */
typedef struct bend {
    c2d_vec2 m;
    double phi, a;
    look start, end; /* the ground touched where the bend starts and (a round mover) where its arc ends */
} bend;

/* Whether the look down from a point, far long, touches walkable ground there: within a few touching
 * widths, as a run that ends touching leaves the mover a hair above what it met. */
static int touches(const character *ch, const look *l, double far)
{
    return l->member >= 0 && l->t * far <= BEND_TOUCH * ch->touch && is_walkable(ch, l->normal);
}

/* The first bend down of the contour past s0 along t, before hi (where the look down *g found walkable
 * ground of another line below). The lines along n and along the ground g found meet at a corner;
 * taken when the contour bends there alone: touching at the corner for a mover with no round part, and
 * for a round one at both ends of the arc that joins the lines, on one vertex of the ground (at its
 * end, the ground's normal m). Else a bend is sought closer (bisecting between the last look that
 * still touched the line and the first that did not). 1 with *out when found, 0 when not, -1 when
 * memory ran out. */
static int find_bend(character *ch, c2d_vec2 s0, c2d_vec2 n, c2d_vec2 t, double hi, const look *g, c2d_vec2 h,
                     double rho, double far, bend *out)
{
    c2d_vec2 down = v2_neg(ch->up);
    double lo = 0, probe = hi;
    look at = *g, l1, l2;
    for (int tries = 0; tries < BEND_PROBES; tries++) {
        if (tries > 0) {
            probe = 0.5 * (lo + hi);
            if (cast(ch, v2_mad(s0, probe, t), v2_scale(down, far), 1.0, &at) < 0)
                return -1;
            if (touches(ch, &at, far) && v2_dot(at.normal, n) >= 1 - 1e-12) {
                lo = probe; /* still on the line */
                continue;
            }
            if (at.member < 0 || !is_walkable(ch, at.normal)) {
                hi = probe;
                continue;
            }
        }
        c2d_vec2 m = at.normal, u = along_ground(m, h);
        c2d_vec2 q = v2_mad(v2_mad(s0, probe, t), at.t * far, down);
        double c = v2_cross(t, u);
        double b = c != 0 ? v2_cross(v2_sub(q, s0), u) / c : -1.0;
        double phi = atan2(fabs(v2_cross(n, m)), v2_dot(n, m));
        if (!(b >= 0 && b <= probe && phi > 1e-9)) {
            hi = probe;
            continue;
        }
        double half = rho * tan(0.5 * phi);
        double a = fmax(b - half, 0.0);
        int ok;
        if (rho == 0) {
            if (cast(ch, v2_mad(s0, b, t), v2_scale(down, far), 1.0, &l1) < 0)
                return -1;
            ok = touches(ch, &l1, far);
        } else {
            if (cast(ch, v2_mad(s0, a, t), v2_scale(down, far), 1.0, &l1) < 0 ||
                cast(ch, v2_mad(v2_mad(s0, b, t), half, u), v2_scale(down, far), 1.0, &l2) < 0)
                return -1;
            ok = touches(ch, &l1, far) && touches(ch, &l2, far) && v2_dot(l2.normal, m) >= 1 - 1e-9 &&
                 v2_len(v2_sub(l1.point, l2.point)) <= BEND_TOUCH * ch->touch;
        }
        if (ok) {
            out->m = m;
            out->phi = phi;
            out->a = a;
            out->start = l1;
            out->end = rho == 0 ? l1 : l2;
            return 1;
        }
        hi = probe;
    }
    return 0;
}

/* A record of the ground the walk touches where it bends, at offset p and fraction t of the walk, going
 * on along vel: the path between records is straight (or, for a round mover between two that touch the
 * same point of the ground, around it: rolling over a vertex), so a game that checks or draws it needs
 * them as it needs a slide's. */
static void bend_record(character *ch, const look *l, c2d_vec2 p, double t, c2d_vec2 vel)
{
    c2d_contact_record *r = c2d_record_list_push(&ch->list);
    if (!r)
        return; /* the list says no_memory: the call answers so */
    memset(r, 0, sizeof *r);
    int owner = c2d_static_set_owner(ch->e.set, l->member);
    r->contact.index = owner;
    r->contact.t = t;
    r->contact.point = l->point;
    r->contact.normal = l->normal;
    r->contact.response = C2D_RESPONSE_SLIDE;
    r->position = v2_add(ch->e.origin, p);
    r->velocity = vel;
    r->user = c2d_static_set_value(ch->e.set, owner);
}

/* The records [from, end) of a leg that walked from fraction t0 of the walk to t1: their t, of the leg,
 * made the walk's. */
static void retime(character *ch, int from, double t0, double t1)
{
    for (int k = from; k < ch->list.count; k++)
        ch->list.items[k].contact.t = t0 + ch->list.items[k].contact.t * (t1 - t0);
}

/* Drops the records [from, end) of a leg around a bend that only touch walkable ground: the ground it
 * walks on, which the bend's own records name. */
static void drop_touches(character *ch, int from)
{
    int kept = from;
    for (int k = from; k < ch->list.count; k++)
        if (!is_walkable(ch, ch->list.items[k].contact.normal))
            ch->list.items[kept++] = ch->list.items[k];
    ch->list.count = kept;
}

/* The walk of length len from *p along the ground of normal n, the way of h, plus the ride carry: a
 * slide run, and on still ground (still: the ground neither moves nor turns) the rest of the walk along each new ground it
 * meets, so that it moves len along the ground however the ground bends. Where the mover's position
 * stands touching the ground (its contour, made of lines and, for a round mover, arcs):
 *  - a bend up (the run slid onto ground still walkable) shortens the run: what it lost is walked on
 *    along the new ground;
 *  - a bend down leaves the ground: a look down (far) finds the ground of normal m below the run's
 *    end. The contour bends there from the line along n to the line along m: at a corner for a mover
 *    with no round part, around an arc of radius rho (the mover's rounding) tangent to both for a
 *    round one, which rolls over the ground's vertex. The leg is walked again as far as the arc, then
 *    around it (two tangent legs that end on it) and on along the ground below.
 * *flags gets what the legs met. *g is the look down from where the walk ended, when *looked says one
 * was made there. */
static c2d_status walk(character *ch, c2d_vec2 *p, c2d_vec2 n, c2d_vec2 h, double len, c2d_vec2 carry,
                       int still, double rho, double far, int *flags, look *g, int *looked)
{
    c2d_move_result res;
    int ground, stopped, leg_from = ch->list.count;
    c2d_vec2 s0 = *p, t = along_ground(n, h);
    double asked = len;
    *looked = 0;
    c2d_status st = leg(ch, p, v2_add(v2_scale(t, len), carry), &res, flags, &ground, &stopped);
    if (st != C2D_OK || stopped || !still)
        return st;
    double left = len - res.travelled;
    c2d_vec2 down = v2_neg(ch->up);
    for (int k = 1; k < WALK_LEGS && !res.truncated; k++) {
        if (ground >= 0) {
            /* A bend up: on along the new ground. */
            if (left <= 4 * ch->e.tol)
                break;
            n = ch->list.items[ground].contact.normal;
            t = along_ground(n, h);
            s0 = *p;
            asked = left;
            leg_from = ch->list.count;
            st = leg(ch, p, v2_scale(t, left), &res, flags, &ground, &stopped);
            retime(ch, leg_from, (len - left) / len, 1.0);
            if (st != C2D_OK || stopped)
                return st;
            left -= res.travelled;
            continue;
        }
        /* A bend down? The leg ran straight along t from s0, touching nothing. */
        if (cast(ch, *p, v2_scale(down, far), 1.0, g) < 0)
            return C2D_ERR_NO_MEMORY;
        *looked = 1;
        if (g->member < 0 || !is_walkable(ch, g->normal) || g->t * far <= ch->touch)
            break;
        bend bd;
        int found = find_bend(ch, s0, n, t, v2_dot(v2_sub(*p, s0), t), g, h, rho, far, &bd);
        if (found < 0)
            return C2D_ERR_NO_MEMORY;
        if (!found || !(asked > bd.a))
            break; /* a drop, not a bend (or one it cannot tell): the look down steps down onto it */
        c2d_vec2 m = bd.m, u = along_ground(m, h);
        double phi = bd.phi, half = rho * tan(0.5 * phi), arc = rho * phi, a = bd.a;
        /* Walked again from s0, along the contour, with a record where it bends. */
        ch->list.count = leg_from;
        *p = s0;
        *looked = 0;
        double at = len - asked; /* how far along the ground the walk was at s0 */
        if (asked <= a + arc) {
            /* Ends on the arc, psi around it, and touches the ground there. */
            double psi = (asked - a) / rho, tangent = rho * tan(0.5 * psi);
            c2d_vec2 w = along_ground(turn_towards(n, m, psi), h);
            bend_record(ch, &bd.start, v2_mad(s0, a, t), (at + a) / len, v2_scale(t, asked - a));
            int from = ch->list.count;
            st = leg(ch, p, v2_scale(t, a + tangent), &res, flags, &ground, &stopped);
            if (st == C2D_OK && !stopped)
                st = leg(ch, p, v2_scale(w, tangent), &res, flags, &ground, &stopped);
            retime(ch, from, 1.0, 1.0);
            if (st == C2D_OK && !stopped) {
                drop_touches(ch, from);
                if (cast(ch, *p, v2_scale(down, far), 1.0, g) < 0)
                    return C2D_ERR_NO_MEMORY;
                *looked = 1;
                /* Rolled around the vertex where the arc began: the same point. */
                look end = *g;
                end.point = bd.start.point;
                if (g->member >= 0)
                    bend_record(ch, &end, *p, 1.0, v2(0, 0));
            }
            return st;
        }
        /* Past the arc: to the corner of the tangents, to the arc's end, and on along the ground below. */
        bend_record(ch, &bd.start, v2_mad(s0, a, t), (at + a) / len, v2_scale(rho > 0 ? t : u, asked - a));
        int from = ch->list.count;
        st = leg(ch, p, v2_scale(t, a + half), &res, flags, &ground, &stopped);
        if (st == C2D_OK && !stopped && half > 0)
            st = leg(ch, p, v2_scale(u, half), &res, flags, &ground, &stopped);
        retime(ch, from, (at + a) / len, (at + a + arc) / len);
        if (st != C2D_OK || stopped)
            return st;
        drop_touches(ch, from);
        ground = -1;
        if (half > 0) {
            look end = bd.end;
            end.point = bd.start.point;
            bend_record(ch, &end, *p, (at + a + arc) / len, v2_scale(u, asked - a - arc));
        }
        n = m;
        t = u;
        s0 = *p;
        asked -= a + arc;
        leg_from = ch->list.count;
        st = leg(ch, p, v2_scale(t, asked), &res, flags, &ground, &stopped);
        retime(ch, leg_from, (len - asked) / len, 1.0);
        if (st != C2D_OK || stopped)
            return st;
        left = asked - res.travelled;
    }
    return C2D_OK;
}

/* A caller's shape's rigid motion over the call, as the set sweeps its members: velocity v, and angular
 * velocity w about c (where its pivot stands now; zero when it does not turn), and its members
 * [first, end). */
typedef struct ground_motion {
    c2d_vec2 v, c;
    double w;
    int first, end;
} ground_motion;

static ground_motion ground_of(const c2d_static_set *set, int i)
{
    ground_motion g;
    g.first = set->first ? set->first[i] : i;
    g.end = set->first ? set->first[i + 1] : i + 1;
    g.v = c2d_static_set_velocity(set, g.first);
    g.w = c2d_static_set_spin(set, g.first);
    g.c = g.w != 0 ? set->spin_pivot[g.first] : v2(0, 0);
    return g;
}

/* Where the ground's motion takes its point x by the end of the call: the very sums with which
 * c2d_static_set_advance(set, 1) places it. */
static c2d_vec2 ground_image(const ground_motion *g, c2d_vec2 x)
{
    double sn, cs;
    c2d_sincos(g->w, &sn, &cs);
    c2d_vec2 r = v2_sub(x, g->c);
    return v2(g->c.x + g->v.x + (cs * r.x - sn * r.y), g->c.y + g->v.y + (sn * r.x + cs * r.y));
}

/* The point of the mover's core by which it stands on the turning ground g at the call's start (the
 * mover at offset 0, the members where they stand), into *q: on the ground's part nearest the mover,
 * the point of the mover's core feature that touches it (a vertex: a capsule's or ball's bottom
 * centre, a box's corner), and where a face rests on a face, the end of the face they share that the
 * turn lifts: at that point the ground turns away from the rest of the face. Returns 1 when the two
 * touch there, 0 when they stand apart (a state from another place: the ride is then the motion of that
 * point all the same, without the ground's motion taken about it), -1 for no enabled part. */
static int stand_point(character *ch, const ground_motion *g, c2d_vec2 *q)
{
    engine *e = &ch->e;
    const c2d_static_set *set = e->set;
    int best = -1;
    double dist = INFINITY;
    c2d_rhull_hit f;
    for (int m = g->first; m < g->end; m++) {
        if (!set->enabled[m])
            continue;
        c2d_rhull h;
        c2d_vec2 shift;
        c2d_rhull_hit fm;
        c2d_engine_hull(e, m, 0, &h, &shift);
        double d = c2d_rhull_signed_distance(&h, shift, &fm);
        if (d < dist) {
            dist = d;
            best = m;
            f = fm;
        }
    }
    if (best < 0)
        return -1;
    c2d_rhull h;
    c2d_vec2 shift, lo, hi;
    c2d_engine_hull(e, best, 0, &h, &shift);
    c2d_rhull_contact_span(&h, &f, set->core[best].v, v2(0, 0), e->a->v, v2(0, 0), &lo, &hi);
    /* Turning by w about q, the ground's surface at s along (-n.y, n.x) from q moves at -w s along n:
     * away from the mover when w s >= 0 for every s of the shared face. */
    *q = g->w > 0 ? lo : hi;
    return dist <= 2 * ch->touch + member_tol(e, best);
}

c2d_status c2d_character_check(c2d_vec2 d, const c2d_character_options *o, c2d_vec2 ground_normal,
                               c2d_vec2 ground_velocity)
{
    c2d_status st = c2d_check_vec(d);
    if (st == C2D_OK)
        st = c2d_check_vec(o->up);
    if (st == C2D_OK)
        st = c2d_check_number(o->max_slope);
    if (st == C2D_OK)
        st = c2d_check_number(o->snap_distance);
    if (st == C2D_OK)
        st = c2d_check_number(o->step_height);
    if (st == C2D_OK)
        st = c2d_check_vec(ground_normal);
    if (st == C2D_OK)
        st = c2d_check_vec(ground_velocity);
    if (st != C2D_OK)
        return st;
    if (o->up.x == 0 && o->up.y == 0)
        return C2D_ERR_DEGENERATE;
    if (!(o->max_slope >= 0 && o->max_slope < 1.5707963267948966) || o->snap_distance < 0 || o->step_height < 0)
        return C2D_ERR_RANGE;
    return C2D_OK;
}

/* The checks of the options and the state, before anything is made. */
static c2d_status check_input(const c2d_static_set *set, c2d_vec2 d, const c2d_character_options *o,
                              const c2d_character_state *s)
{
    c2d_status st = c2d_character_check(d, o, s->ground_normal, s->ground_velocity);
    if (st != C2D_OK)
        return st;
    if (s->ground_index < -1 || s->ground_index >= set->n_public)
        return C2D_ERR_RANGE;
    return C2D_OK;
}

c2d_status c2d_static_set_move_character(const c2d_static_set *set, const c2d_shape *mover_shape,
                                         c2d_vec2 displacement, const c2d_character_options *options,
                                         c2d_character_state *state, c2d_character_result *result,
                                         c2d_records_fn report, void *report_ctx)
{
    if (!set || !mover_shape || !state || !result)
        return C2D_ERR_NULL;
    c2d_character_options o = options ? *options : c2d_character_options_default();
    c2d_status st = check_input(set, displacement, &o, state);
    if (st != C2D_OK)
        return st;
    c2d_character_state in = *state;
    int grounded_in = in.grounded && in.ground_index >= 0;

    /* The ground's motion, read from the set: it is what the set sweeps the member by in this call. */
    c2d_vec2 carry = v2(0, 0), one_way = v2(0, 0);
    ground_motion gm;
    memset(&gm, 0, sizeof gm);
    if (grounded_in) {
        gm = ground_of(set, in.ground_index);
        carry = gm.v;
        c2d_static_set_get_one_way(set, in.ground_index, &one_way);
    }

    character ch;
    /* Unit up, scaled first so that no square underflows (up (1e-200, 0) is as good as (1, 0)). */
    c2d_vec2 u = v2_scale(o.up, 1.0 / vec_magnitude(o.up));
    ch.up = v2_scale(u, 1.0 / v2_len(u));
    double sn, cs;
    c2d_sincos(o.max_slope, &sn, &cs);
    ch.walkable = cs;

    /* Drop-through: the one-way members are no shapes for this call (their seams with solid neighbours
     * undone by the engine, as for any call whose responses ignore a shape). */
    c2d_response stack_responses[CHARACTER_RESPONSES], *responses = NULL;
    c2d_move_options mo = c2d_move_options_default();
    mo.response = C2D_RESPONSE_SLIDE;
    if (o.drop_through && set->one_way) {
        int n = set->n_public;
        responses = n <= CHARACTER_RESPONSES ? stack_responses : (c2d_response *)malloc((size_t)n * sizeof *responses);
        if (!responses)
            return C2D_ERR_NO_MEMORY;
        for (int i = 0; i < n; i++) {
            c2d_vec2 w;
            c2d_static_set_get_one_way(set, i, &w);
            responses[i] = w.x != 0 || w.y != 0 ? C2D_RESPONSE_NONE : C2D_RESPONSE_SLIDE;
        }
        mo.responses = responses;
    }

    mover a;
    if ((st = c2d_mover_of_shape(mover_shape, &a)) != C2D_OK) {
        if (responses != stack_responses)
            free(responses);
        return st;
    }
    /* Its coordinates over the call: where it stands, grown by all it may move (the motion, the ride,
     * a step up and back down, the look down). On turning ground the ride is the motion of a point of
     * the mover, at most |v| + 2 |sin(w / 2)| times its distance from the pivot. */
    double ride_bound = vec_magnitude(carry);
    if (gm.w != 0) {
        double far = 0;
        for (int k = 0; k < 4; k++) {
            c2d_vec2 corner = v2(k & 1 ? a.box.max.x : a.box.min.x, k & 2 ? a.box.max.y : a.box.min.y);
            far = c2d_max_num(far, v2_len(v2_sub(corner, gm.c)));
        }
        ride_bound += fmin(2.0, fabs(gm.w)) * far * (1 + 1e-12);
    }
    double reach = vec_magnitude(displacement) + ride_bound + 2 * o.step_height + o.snap_distance;
    double scale = c2d_aabb_magnitude(a.box) + reach;
    if (!(scale <= C2D_MAX_COORDINATE)) {
        c2d_mover_free(&a);
        if (responses != stack_responses)
            free(responses);
        return C2D_ERR_RANGE;
    }
    st = c2d_engine_init(&ch.e, set, &a, &mo, C2D_RESPONSE_SLIDE, scale, 1.0);
    if (st != C2D_OK) {
        c2d_mover_free(&a);
        if (responses != stack_responses)
            free(responses);
        return st;
    }
    ch.touch = 4 * ch.e.tol;
    c2d_contact_record stack_records[CHARACTER_RECORDS];
    c2d_record_list_init(&ch.list, stack_records, CHARACTER_RECORDS);
    ch.e.list = &ch.list;
    ch.e.origin = mover_shape->pos;

    c2d_vec2 up = ch.up, down = v2_neg(up);
    double rise = v2_dot(displacement, up);
    c2d_vec2 across = v2_mad(displacement, -rise, up);
    double len = v2_len(across);

    /* The ride on ground that turns: the point q of the mover's core by which it stands goes where the
     * ground's motion takes that point of the ground, on a straight leg, as c2d_static_set_advance
     * places the ground. Straight, that leg would cut inside the arc the ground's point follows, into
     * the ground, and the engine's sweep of the turn would push the mover about; so this call's engine
     * takes the ground's motion about q itself (the same motion over the call, ending where the set's
     * calls leave it, see engine.ride_first): q then goes straight with the ground, the mover touches
     * the ground all the way, and the ground turns away from the rest of it. A walk goes along the
     * ground's surface as it stands at the start when the turn carries the ground ahead of it down, as
     * it stands at the end when up: either way the walk never cuts into it, and up it ends on it. */
    c2d_vec2 walk_normal = in.ground_normal;
    if (grounded_in && gm.w != 0) {
        c2d_vec2 q;
        int touching = stand_point(&ch, &gm, &q);
        if (touching >= 0)
            carry = v2_sub(ground_image(&gm, q), q);
        if (touching > 0) {
            ch.e.ride_first = gm.first;
            ch.e.ride_end = gm.end;
            ch.e.ride_pivot = q;
            ch.e.ride_velocity = carry;
            double r = 0;
            for (int m = gm.first; m < gm.end; m++) {
                const c2d_core *k = &set->core[m];
                double r2 = 0;
                for (int j = 0; j < k->count; j++)
                    r2 = fmax(r2, v2_len2(v2_sub(k->v[j], q)));
                r = c2d_max_num(r, sqrt(r2) + k->radius);
            }
            ch.e.ride_reach = r;
            c2d_engine_set_horizon(&ch.e, 1.0);
            c2d_vec2 n = in.ground_normal;
            if (gm.w * v2_dot(v2(-n.y, n.x), across) < 0) {
                double ts, tc;
                c2d_sincos(gm.w, &ts, &tc);
                walk_normal = v2(tc * n.x - ts * n.y, ts * n.x + tc * n.y);
            }
        }
    }
    int still_ground = gm.v.x == 0 && gm.v.y == 0 && gm.w == 0;
    int dropping = o.drop_through && (one_way.x != 0 || one_way.y != 0);
    /* Walking: on walkable ground, not jumping off it, not dropping through it. */
    int walking = grounded_in && is_walkable(&ch, in.ground_normal) && rise <= 0 && !dropping;
    int flags = 0;
    c2d_vec2 p = v2(0, 0);
    look g;
    g.member = -1;
    int looked = 0;
    if (walking) {
        int from = ch.list.count;
        st = walk(&ch, &p, walk_normal, across, len, carry, still_ground, a.r, o.snap_distance + ch.touch, &flags,
                  &g, &looked);
        /* Blocked: the walk again, lifted by the step height and set down on top, taken when it lands
         * on walkable ground further along. */
        if (st == C2D_OK && (flags & C2D_CHARACTER_WALL) && o.step_height > 0 && len > 0) {
            c2d_vec2 dir = v2_scale(across, 1.0 / len);
            look lift, land;
            c2d_vec2 q = v2(0, 0);
            int kept = ch.list.count;
            if (cast(&ch, q, v2_scale(up, o.step_height), 0.0, &lift) < 0)
                st = C2D_ERR_NO_MEMORY;
            double h = lift.t * o.step_height;
            int step_flags = 0;
            if (st == C2D_OK) {
                q = v2_mad(q, h, up);
                c2d_move_result res;
                int at = ch.list.count;
                st = run(&ch, &q, v2_add(v2_scale(dir, len), carry), &res);
                if (st == C2D_OK) {
                    int ground;
                    step_flags = met(&ch, at, ch.list.count, &ground);
                }
            }
            if (st == C2D_OK && cast(&ch, q, v2_scale(down, h + o.snap_distance + ch.touch), 1.0, &land) < 0)
                st = C2D_ERR_NO_MEMORY;
            if (st == C2D_OK) {
                c2d_vec2 q_end = v2_mad(q, land.t * (h + o.snap_distance + ch.touch), down);
                /* A round bottom lifted short of the top may slide up the corner on the way, higher
                 * than step_height: not a step it may take. */
                int over = v2_dot(q, up) > h + ch.touch;
                /* Nor may it land on the step's edge, lower than its top, where a round bottom rests
                 * on a corner it cannot reach: what it lands on must be within step_height of its
                 * lowest point where it stood. */
                double lowest = v2_dot(a.v[0], up);
                for (int k = 1; k < a.n; k++)
                    lowest = fmin(lowest, v2_dot(a.v[k], up));
                lowest -= a.r;
                if (land.member >= 0 && v2_dot(land.point, up) - lowest > o.step_height + ch.touch)
                    over = 1;
                int landed = land.member >= 0 && is_walkable(&ch, land.normal) && !over;
                if (landed && v2_dot(q_end, dir) > v2_dot(p, dir) + ch.touch) {
                    /* Taken: the records of the blocked walk give way to the step's. */
                    int n_step = ch.list.count - kept;
                    memmove(ch.list.items + from, ch.list.items + kept, (size_t)n_step * sizeof *ch.list.items);
                    ch.list.count = from + n_step;
                    p = q_end;
                    flags = (flags & ~C2D_CHARACTER_WALL) | step_flags | C2D_CHARACTER_STEPPED;
                    g = land;
                } else {
                    ch.list.count = kept;
                }
            }
        }
    } else {
        c2d_move_result res;
        c2d_vec2 ride = grounded_in ? carry : v2(0, 0);
        st = run(&ch, &p, v2_add(displacement, ride), &res);
        if (st == C2D_OK) {
            int ground;
            flags |= met(&ch, 0, ch.list.count, &ground);
            /* Pushed sideways into ground too steep to stand on, a slide goes up it: falling (or
             * not rising), the character never climbs that way. Again without the push. */
            if ((flags & C2D_CHARACTER_WALL) && rise <= 0 && v2_dot(v2_sub(p, ride), up) > ch.touch) {
                ch.list.count = 0;
                p = v2(0, 0);
                st = run(&ch, &p, v2_add(v2_scale(up, rise), ride), &res);
                if (st == C2D_OK)
                    flags |= met(&ch, 0, ch.list.count, &ground);
            }
        }
    }

    /* A turning member that kept pushing the character carries it along the member's arc for the rest
     * of a run (run.c's carry) upright, while the member turns under it: that may leave it a little
     * inside the member (a capsule's foot, off its position, turns into the member with it). And a
     * walk stopped by a wall stops where it met it, while the ground it rides turns on under it. So
     * after a run that met anything in a set where something turns, the character is pushed out of
     * the members where the call leaves them; as it rides its ground it meets nothing, and nothing
     * changes. */
    /* Nor does such a member leave it touching: landing on it, the character moves on from the contact
     * with its surface's velocity there while the member turns on, opening a gap (at most the turn
     * times how far the surface under it is from there: the turn's swing, the character's own travel,
     * its size when carried upright); a walk on ground that turns it down ahead ends its length times
     * the turn above it. So the look down goes that much further, and the character settles onto
     * walkable ground it finds (slack: 0 unless a turning member was met or ridden). */
    double slack = 0;
    if (st == C2D_OK && set->spin) {
        double travel = v2_len(displacement) + v2_len(carry), diag = 0.5 * v2_len(v2_sub(a.box.max, a.box.min));
        for (int k = 0; k < ch.list.count; k++) {
            ground_motion m = ground_of(set, ch.list.items[k].contact.index);
            if (m.w == 0)
                continue;
            if (is_walkable(&ch, ch.list.items[k].contact.normal)) {
                double rho = 0;
                for (int j = 0; j < 4; j++) {
                    c2d_vec2 corner = v2(j & 1 ? a.box.max.x : a.box.min.x, j & 2 ? a.box.max.y : a.box.min.y);
                    rho = c2d_max_num(rho, v2_len(v2_sub(v2_add(corner, p), m.c)));
                }
                slack = c2d_max_num(slack, fabs(m.w) * (fmin(1.0, fabs(m.w)) * rho + travel + diag));
            }
        }
        if (walking && ch.e.ride_end > ch.e.ride_first)
            slack = c2d_max_num(slack, fabs(gm.w) * len);
        if (ch.list.count > 0) {
            c2d_move_result res;
            memset(&res, 0, sizeof res);
            st = c2d_engine_settle(&ch.e, &p, 1.0, &res);
            if (st == C2D_OK && ch.list.no_memory)
                st = C2D_ERR_NO_MEMORY;
        }
    }

    /* What it stands on now: a look down, snap_distance far after a walk (stepping down onto it), a
     * touch's width otherwise; none while it rises. */
    int grounded = 0, wedged = 0;
    c2d_vec2 snap = v2(0, 0);
    if (st == C2D_OK && !(flags & C2D_CHARACTER_STEPPED) && (walking || rise <= 0)) {
        double near = (walking ? o.snap_distance : 0) + ch.touch, far = near + slack;
        /* The walk's own last look serves, when it was made from here as far (nothing turns). */
        if (!(looked && !set->spin) && cast(&ch, p, v2_scale(down, far), 1.0, &g) < 0)
            st = C2D_ERR_NO_MEMORY;
        else if (g.member >= 0 && !is_walkable(&ch, g.normal) && g.t * far > near)
            g.member = -1; /* the slack is for settling onto walkable ground only */
        else if (g.member >= 0 && is_walkable(&ch, g.normal)) {
            double drop = g.t * far;
            if (drop > ch.touch) {
                snap = v2_scale(down, drop);
                p = v2_add(p, snap);
                flags |= C2D_CHARACTER_SNAPPED;
            }
        } else if (g.member >= 0) {
            flags |= C2D_CHARACTER_STEEP;
            /* Wedged in a V of ground too steep to stand on: asked down, it went nowhere down, held
             * by what it touches. It stands there (a game that lets it jump from the ground can get
             * it out; falling on for ever at full speed would not). */
            wedged = !walking && -rise > ch.touch && -v2_dot(p, up) <= ch.touch && g.t * far <= ch.touch;
        }
    }
    if (st == C2D_OK)
        grounded = g.member >= 0 && (is_walkable(&ch, g.normal) || wedged);
    c2d_engine_free(&ch.e);
    c2d_mover_free(&a);
    if (responses != stack_responses)
        free(responses);
    /* The legs' times, each made the walk's, may round a hair below the one before: in order. */
    for (int k = 1; k < ch.list.count; k++)
        ch.list.items[k].contact.t = fmax(ch.list.items[k].contact.t, ch.list.items[k - 1].contact.t);
    if (st == C2D_OK && report)
        st = report(report_ctx, ch.list.items, ch.list.count);
    if (st == C2D_OK) {
        c2d_character_state out;
        memset(&out, 0, sizeof out);
        out.grounded = grounded;
        out.ground_index = -1;
        if (grounded) {
            int owner = c2d_static_set_owner(set, g.member);
            out.ground_index = owner;
            out.ground_normal = g.normal;
            out.ground_point = g.point;
            /* The velocity of its surface there, where the call leaves it (its pivot moved by v). */
            ground_motion og = ground_of(set, owner);
            out.ground_velocity = og.v;
            if (og.w != 0) {
                c2d_rigid m = {og.c, og.v, og.w};
                out.ground_velocity = c2d_rigid_velocity_at(&m, 1.0, g.point);
            }
            out.ground_user = c2d_static_set_value(set, owner);
            if (!grounded_in)
                flags |= C2D_CHARACTER_LANDED;
        }
        result->displacement = p;
        result->flags = flags;
        result->count = ch.list.count;
        result->snap = snap;
        *state = out;
    }
    c2d_record_list_free(&ch.list);
    return st;
}
