/* ops_world_entry.c - a world entry enabled or disabled (op 57: c2d_world_set_enabled, _get_enabled)
 * and given a velocity (op 58: c2d_world_set_velocity, _get_velocity), on live, removed and made-up
 * ids. The model keeps both (fz_entry.off, .vel) and every world snapshot compares the getters with
 * it, so a refused call must change nothing and an accepted one exactly the flag or velocity given.
 * The other world ops take them from the model: a disabled entry is never found by a query, ray or
 * pair, never asked about by a callback, never met by a move, ball step, cast or push-out; an entry
 * with a velocity is swept by moves and casts (their records and answers are checked where it had
 * moved to then) and left out of the never-inside checks (it may crush a mover that stopped). */
#include "fz.h"

/* A world entry the calls see: live and enabled. */
int fz_entry_seen(const fz_entry *e)
{
    return e->live && !e->off;
}

/* An entry with a velocity (world moves, ball steps and casts sweep it). */
int fz_entry_moves(const fz_entry *e)
{
    return e->vel.x != 0 || e->vel.y != 0;
}

/* The entry an entry call names: a live one, a removed one, or a made-up id (which may be a live
 * entry's); k is its index in the model, live whether the world must accept it. */
static int fz_entry_named(fz_state *st, c2d_world_id *id, int *live)
{
    int k = fz_entry_pick(st, id);
    if (st->world && (k < 0 || !st->ent[k].live))
        k = fz_entry_of(st, *id); /* a made-up or reused id may be that of a live entry */
    *live = st->world && k >= 0 && st->ent[k].live;
    return k;
}

/* Whether entry k's own shape finds the entry by a query (NULL filter): -1 when not known. */
static int fz_finds_itself(fz_state *st, int k)
{
    c2d_world_hit h[FZ_MAX_ENTRIES];
    int count = 0;
    if (c2d_world_query_shape(st->world, st->ent[k].shape, NULL, h, FZ_MAX_ENTRIES, &count) != C2D_OK)
        return -1;
    for (int i = 0; i < count; i++)
        if (h[i].id == st->ent[k].id)
            return 1;
    return 0;
}

/* op world_enable: c2d_world_set_enabled with 0, 1 or any other int (nonzero enables) on a live,
 * removed or made-up id. NULL world: C2D_ERR_NULL; not live: C2D_ERR_RANGE; either way nothing
 * changes. Accepted: get_enabled gives 1 or 0, the entry's own shape finds it by a query exactly when
 * it is enabled, and (mode bit 6) setting the old flag back leaves the world as it was. */
void op_world_enable(fz_state *st)
{
    c2d_world_id id;
    int live;
    int k = fz_entry_named(st, &id, &live);
    uint8_t b = fz_byte(st);
    int enabled = (b & 0x80) ? ((b & 0x20) ? INT_MIN : (int)(int8_t)b) : (b & 1);
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status s = c2d_world_set_enabled(st->world, id, enabled);
    fz_check_status(s);
    int out;
    memset(&out, FZ_POISON, sizeof out);
    FZ_CHECK(c2d_world_get_enabled(st->world, id, NULL) == C2D_ERR_NULL, "get_enabled to NULL accepted");
    if (fz_trace)
        fprintf(stderr, " -> set_enabled(%llu, %d): %d", (unsigned long long)id, enabled, (int)s);
    if (!live || s == C2D_ERR_NO_MEMORY) {
        FZ_CHECK(s == (!st->world ? C2D_ERR_NULL : !live ? C2D_ERR_RANGE : C2D_ERR_NO_MEMORY),
                 "set_enabled of id %llu (%s) gave %d", (unsigned long long)id, live ? "live" : "not live", (int)s);
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a refused set_enabled changed the world");
        if (!live)
            FZ_CHECK(c2d_world_get_enabled(st->world, id, &out) == (st->world ? C2D_ERR_RANGE : C2D_ERR_NULL) &&
                         fz_is_poison(&out, sizeof out),
                     "get_enabled of id %llu, not live, answered or wrote", (unsigned long long)id);
        return;
    }
    FZ_CHECK(s == C2D_OK, "set_enabled of a live entry gave %d", (int)s);
    int was_off = st->ent[k].off;
    st->ent[k].off = enabled == 0;
    FZ_CHECK(c2d_world_get_enabled(st->world, id, &out) == C2D_OK && out == (enabled != 0),
             "get_enabled gave %d after set_enabled(%d)", out, enabled);
    fz_world_snapshot(st, &after); /* every other entry as it was, this one's flag as set */
    int self = fz_finds_itself(st, k);
    int o = 0;
    c2d_overlap(st->ent[k].shape, st->ent[k].shape, &o);
    FZ_CHECK(self < 0 || (enabled ? self == 1 || !o : self == 0), "the %s entry %d's own shape %s it",
             enabled ? "enabled" : "disabled", k, self ? "finds" : "does not find");
    if (b & 0x40) {
        FZ_CHECK(c2d_world_set_enabled(st->world, id, !was_off) == C2D_OK, "setting the flag back failed");
        st->ent[k].off = was_off;
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "enabled and set back, the world is not as it was");
    }
}

/* op world_velocity: c2d_world_set_velocity with any vector (NaN, infinite, 1e300, one ulp past the
 * range), zero, -0 or a small one, on a live, removed or made-up id. Statuses: NULL world, not live
 * (C2D_ERR_RANGE), else the vector's (not finite, out of range); a refusal changes nothing. Accepted:
 * get_velocity gives it, get_motion has it with no turn (the harness gives no entry a turn), and (mode
 * bit 6) the old velocity set back leaves the world as it was. */
void op_world_velocity(fz_state *st)
{
    c2d_world_id id;
    int live;
    int k = fz_entry_named(st, &id, &live);
    uint8_t mode = fz_byte(st);
    c2d_vec2 v;
    switch (mode & 3) {
    case 0:
        v = fz_vec(st);
        break;
    case 1:
        v = fz_v(fz_number(st), 0);
        break;
    case 2:
        v = fz_v(0, 0);
        break;
    default:
        v = fz_v(-0.0, (mode & 4) ? -0.0 : -3.0);
        break;
    }
    fz_world_snap before, after;
    fz_world_snapshot(st, &before);
    c2d_status s = c2d_world_set_velocity(st->world, id, v);
    fz_check_status(s);
    c2d_status want = !st->world ? C2D_ERR_NULL : !live ? C2D_ERR_RANGE : fz_vec_status(v);
    c2d_vec2 got;
    memset(&got, FZ_POISON, sizeof got);
    FZ_CHECK(c2d_world_get_velocity(st->world, id, NULL) == C2D_ERR_NULL, "get_velocity to NULL accepted");
    if (fz_trace)
        fprintf(stderr, " -> set_velocity(%llu): %d (want %d)", (unsigned long long)id, (int)s, (int)want);
    if (want != C2D_OK || s == C2D_ERR_NO_MEMORY) {
        FZ_CHECK(s == want || s == C2D_ERR_NO_MEMORY, "set_velocity of id %llu (%.17g, %.17g) gave %d, not %d",
                 (unsigned long long)id, v.x, v.y, (int)s, (int)want);
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a refused set_velocity changed the world");
        if (!live)
            FZ_CHECK(c2d_world_get_velocity(st->world, id, &got) == (st->world ? C2D_ERR_RANGE : C2D_ERR_NULL) &&
                         fz_is_poison(&got, sizeof got),
                     "get_velocity of id %llu, not live, answered or wrote", (unsigned long long)id);
        return;
    }
    FZ_CHECK(s == C2D_OK, "set_velocity gave %d", (int)s);
    c2d_vec2 old = st->ent[k].vel;
    st->ent[k].vel = v;
    c2d_motion mo;
    /* (As a number: a velocity of -0 is no motion, which reads back as +0.) */
    FZ_CHECK(c2d_world_get_velocity(st->world, id, &got) == C2D_OK && fz_vec_eq(got, v) &&
                 c2d_world_get_motion(st->world, id, &mo) == C2D_OK && fz_vec_eq(mo.velocity, v) &&
                 mo.angular_velocity == 0 && mo.pivot.x == 0 && mo.pivot.y == 0,
             "after set_velocity (%.17g, %.17g) get_velocity gave (%.17g, %.17g)", v.x, v.y, got.x, got.y);
    fz_world_snapshot(st, &after);
    if (mode & 0x40) {
        FZ_CHECK(c2d_world_set_velocity(st->world, id, old) == C2D_OK, "setting the velocity back failed");
        st->ent[k].vel = old;
        fz_world_snapshot(st, &after);
        FZ_CHECK(memcmp(&before, &after, sizeof before) == 0, "a velocity set back leaves the world changed");
    }
}
