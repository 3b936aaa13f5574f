/* 6x6 self-play as a plain C program: the speed anchor of `make bench` (benchmarks/bench_sixbysix.py).
 *
 * The rules of analysis/sixbysix/kernel.py (the compiled twin of the engine), written again plainly:
 * every round each active player, from the lead on, pays one chip as a bet on a face of the die
 * and puts a marker on a free allowed number; then one die is rolled per active player, a bet
 * whose face comes up refunds its chip, every other chip goes to the bank; the first player (in
 * turn order) whose marker stands on the dice's sum takes the bank, else the bank carries over
 * (or goes to the house). A player with no chip is out; the last one left wins. The agents'
 * choices come as tables on standard input (the greedy/favourite preference order over the
 * allowed numbers and the face it bets, per number of active players, or -1 for a random seat),
 * written by the benchmark from the engine's own tables, so this program decides nothing the
 * engine does not.
 *
 * Its random numbers are not Python's (xoshiro256** here, a Mersenne Twister matching CPython's
 * `random` in the kernel): the benchmark compares the two by their statistics, not game by game.
 *
 * Input (whitespace-separated integers):
 *   games seed players chips max_rounds fixed_lead house_bank face_count faces...
 *   then for k = 1..players: allowed_len allowed...; then per seat s and k = 1..players:
 *   pref_len (-1: random) pref...; then per k = 1..players and number 0..numbers-1: best face,
 *   preceded by `numbers`.
 * Output: one line of figures (see the printf at the end).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MAXP 8
#define MAXN 128
#define MAXF 32

static uint64_t rng[4];

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next(void) {
    uint64_t result = rotl(rng[1] * 5, 7) * 9, t = rng[1] << 17;
    rng[2] ^= rng[0]; rng[3] ^= rng[1]; rng[1] ^= rng[2]; rng[0] ^= rng[3];
    rng[2] ^= t; rng[3] = rotl(rng[3], 45);
    return result;
}

/* a uniform integer in 0..n-1 (Lemire's multiply, with rejection: no bias) */
static inline uint32_t below(uint32_t n) {
    uint64_t m = (uint64_t)(uint32_t)(next() >> 32) * n;
    uint32_t low = (uint32_t)m;
    if (low < n) {
        uint32_t floor = -n % n;
        while (low < floor) { m = (uint64_t)(uint32_t)(next() >> 32) * n; low = (uint32_t)m; }
    }
    return (uint32_t)(m >> 32);
}

static int read_int(void) {
    int v;
    if (scanf("%d", &v) != 1) { fprintf(stderr, "sixbysix_twin: short input\n"); exit(2); }
    return v;
}

int main(void) {
    long games = read_int();
    uint64_t seed = (uint64_t)read_int();
    int n = read_int(), start_chips = read_int(), max_rounds = read_int(), fixed = read_int(), house = read_int();
    int face_count = read_int(), faces[MAXF];
    if (n < 1 || n > MAXP || face_count < 1 || face_count > MAXF) { fprintf(stderr, "sixbysix_twin: bad sizes\n"); return 2; }
    for (int i = 0; i < face_count; i++) faces[i] = read_int();
    static int allowed[MAXP + 1][MAXN], allowed_len[MAXP + 1], pref[MAXP][MAXP + 1][MAXN], pref_len[MAXP][MAXP + 1];
    static int bestface[MAXP + 1][MAXN];
    for (int k = 1; k <= n; k++) {
        allowed_len[k] = read_int();
        for (int i = 0; i < allowed_len[k]; i++) allowed[k][i] = read_int();
    }
    for (int s = 0; s < n; s++)
        for (int k = 1; k <= n; k++) {
            pref_len[s][k] = read_int();
            for (int i = 0; i < pref_len[s][k]; i++) pref[s][k][i] = read_int();
        }
    int numbers = read_int();
    if (numbers > MAXN) { fprintf(stderr, "sixbysix_twin: too many numbers\n"); return 2; }
    for (int k = 1; k <= n; k++)
        for (int v = 0; v < numbers; v++) bestface[k][v] = read_int();

    uint64_t x = seed;
    for (int i = 0; i < 4; i++) rng[i] = splitmix(&x);
    long wins[MAXP] = {0}, unfinished = 0, draws = 0, rounds_sum = 0, no_winner_rounds = 0;
    int chips[MAXP], active[MAXP], bets[MAXP], markers[MAXP], order[MAXP], taken[MAXN];
    for (long g = 0; g < games; g++) {
        int bank = 0, lead = 0, rounds = 0, first = 1;
        for (int s = 0; s < n; s++) { chips[s] = start_chips; active[s] = 1; }
        for (;;) {
            int out_mask = 0, left_mask = 0, left = 0;
            for (int s = 0; s < n; s++)
                if (active[s] && chips[s] == 0) { active[s] = 0; out_mask |= 1 << s; }
            for (int s = 0; s < n; s++)
                if (active[s]) { left_mask |= 1 << s; left++; }
            if (left <= 1) {
                int mask = left ? left_mask : out_mask;
                if (mask && !(mask & (mask - 1))) wins[__builtin_ctz(mask)]++; else draws++;
                rounds_sum += rounds;
                break;
            }
            if (rounds >= max_rounds) { unfinished++; break; }
            int start = fixed ? 0 : (first ? lead : lead + 1);
            first = 0;
            for (int i = 0; i < n; i++)
                if (active[(start + i) % n]) { lead = (start + i) % n; break; }
            int k = 0;
            for (int i = 0; i < n; i++)
                if (active[(lead + i) % n]) order[k++] = (lead + i) % n;
            for (int i = 0; i < allowed_len[k]; i++) taken[allowed[k][i]] = 0;
            for (int i = 0; i < k; i++) {
                int s = order[i], face, number = 0;
                if (pref_len[s][k] < 0) {  /* random: a face and a free allowed number */
                    int free = 0;
                    for (int j = 0; j < allowed_len[k]; j++) free += !taken[allowed[k][j]];
                    uint32_t pick = below((uint32_t)(face_count * free));
                    face = faces[pick / free];
                    int nth = pick % free;
                    for (int j = 0; j < allowed_len[k]; j++)
                        if (!taken[allowed[k][j]]) { if (nth == 0) { number = allowed[k][j]; break; } nth--; }
                } else {
                    for (int j = 0; j < pref_len[s][k]; j++) { number = pref[s][k][j]; if (!taken[number]) break; }
                    face = bestface[k][number];
                }
                chips[s]--; bets[s] = face; markers[s] = number; taken[number] = 1;
            }
            int total = 0;
            for (int i = 0; i < k; i++) {
                int s = order[i], face = faces[below((uint32_t)face_count)];
                total += face;
                if (face == bets[s]) chips[s]++; else bank++;
            }
            int winner = -1;
            for (int i = 0; i < k; i++)
                if (markers[order[i]] == total) { winner = order[i]; break; }
            if (winner >= 0) { chips[winner] += bank; bank = 0; }
            else { no_winner_rounds++; if (house) bank = 0; }
            rounds++;
        }
    }
    printf("games %ld unfinished %ld draws %ld rounds_of_finished %ld no_winner_rounds %ld wins", games, unfinished,
           draws, rounds_sum, no_winner_rounds);
    for (int s = 0; s < n; s++) printf(" %ld", wins[s]);
    printf("\n");
    return 0;
}
