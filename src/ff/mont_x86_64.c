/* SPDX-License-Identifier: Apache-2.0 OR MIT */
/* Montgomery multiplication for the BLS12-381 moduli in x86-64 assembly (see mont_x86_64.h).
 *
 * Interleaved CIOS. Each of the n rounds first adds a·b_i to the running value t (n+1 words), then adds q·m with
 * q = t_0·(−m⁻¹) mod 2^64 so that the low word becomes zero and drops off. MULX leaves the flags alone, so one row
 * of products is accumulated with two independent carry chains: ADCX adds the low halves (CF) and ADOX the high
 * halves (OF). Instead of moving words down after each round, the next round names its registers one further
 * along (the macros take the register names), so t rotates through r8..r14.
 *
 * Why t needs only n+1 words: both moduli leave the top bit free (m < 2^(64n−1)), inputs are < m, and by induction
 * t < 2m at the end of every round: t' = (t + a·b_i + q·m)/2^64 < (2m + m·2^64 + m·2^64)/2^64 ≤ 2m + 1, and
 * 2m < 2^(64n). So before the division the value is < 2^(64(n+1)): no carry ever leaves the top word, and the
 * result needs a single conditional subtraction of m.
 *
 * The functions are written as file-scope assembly so that they own their registers (no inline-asm constraints to
 * satisfy at -O0 or under the sanitizers); they follow the System V calling convention. */
#include "mont_x86_64.h"

#ifdef CUZK_FF_ASM
/* the assembly keeps its hand layout: one instruction group per line */
/* clang-format off */

#define S(x) #x
#define R(x) "%" S(x)

/* push/pop with unwind information, so debuggers and sanitizers can walk through these frames */
#define PUSH(reg) "push " R(reg) "\n\t.cfi_adjust_cfa_offset 8\n\t.cfi_rel_offset " R(reg) ", 0\n\t"
#define POP(reg) "pop " R(reg) "\n\t.cfi_adjust_cfa_offset -8\n\t.cfi_restore " R(reg) "\n\t"

#define FUNC_BEGIN(name)                                                                                           \
    ".pushsection .text\n\t.globl " #name "\n\t.hidden " #name "\n\t.type " #name ", @function\n\t.p2align 5\n" #name \
    ":\n\t.cfi_startproc\n\t"
#define FUNC_END(name) ".cfi_endproc\n\t.size " #name ", .-" #name "\n\t.popsection\n\t"

/* One product word pair: lo(a_j·rdx) into word t_j on the CF chain, hi into t_{j+1} on the OF chain. */
#define MAC(src, tj, tj1) "mulx " src ", %rax, %rbx\n\t" "adcx %rax, " R(tj) "\n\t" "adox %rbx, " R(tj1) "\n\t"

/* ---- p (381 bits, 6 words) ------------------------------------------------------------------------------------- */
#define P(off) ".Lcuzk_p381+" #off "(%rip)"
#define P2(off) ".Lcuzk_p381x2+" #off "(%rip)"

/* Round 0: t0..t6 = a·b_0. a in rsi, b in rcx. */
#define P_ROW0                                                                                                     \
    "mov 0(%rcx), %rdx\n\t"                                                                                        \
    "mulx 0(%rsi), %r8, %r9\n\t"                                                                                   \
    "mulx 8(%rsi), %rax, %r10\n\t add %rax, %r9\n\t"                                                               \
    "mulx 16(%rsi), %rax, %r11\n\t adc %rax, %r10\n\t"                                                             \
    "mulx 24(%rsi), %rax, %r12\n\t adc %rax, %r11\n\t"                                                             \
    "mulx 32(%rsi), %rax, %r13\n\t adc %rax, %r12\n\t"                                                             \
    "mulx 40(%rsi), %rax, %r14\n\t adc %rax, %r13\n\t"                                                             \
    "adc $0, %r14\n\t"

/* Rounds 1..5: t0..t6 = t0..t5 + a·b_i (b_i at byte offset off of rcx). r15 is the zero register. */
#define P_ROW(off, t0, t1, t2, t3, t4, t5, t6)                                                                     \
    "mov " #off "(%rcx), %rdx\n\t"                                                                                 \
    "xor %r15d, %r15d\n\t"                                                                                         \
    MAC("0(%rsi)", t0, t1) MAC("8(%rsi)", t1, t2) MAC("16(%rsi)", t2, t3) MAC("24(%rsi)", t3, t4)                  \
    MAC("32(%rsi)", t4, t5)                                                                                        \
    "mulx 40(%rsi), %rax, " R(t6) "\n\t"                                                                           \
    "adcx %rax, " R(t5) "\n\t"                                                                                     \
    "adox %r15, " R(t6) "\n\t"                                                                                     \
    "adcx %r15, " R(t6) "\n\t"

/* t += q·p with q chosen so that t0 becomes 0; the result is left in t1..t6. INV names −p⁻¹ mod 2^64 (a register
 * where one is free, else the constant in memory). */
#define P_RED_INV(INV, t0, t1, t2, t3, t4, t5, t6)                                                                 \
    "mov " R(t0) ", %rdx\n\t"                                                                                      \
    "imul " INV ", %rdx\n\t"                                                                                       \
    "xor %r15d, %r15d\n\t"                                                                                         \
    MAC(P(0), t0, t1) MAC(P(8), t1, t2) MAC(P(16), t2, t3) MAC(P(24), t3, t4) MAC(P(32), t4, t5)                   \
    MAC(P(40), t5, t6)                                                                                             \
    "adcx %r15, " R(t6) "\n\t"

/* Store t (< 2p) minus p when that does not borrow, else t, to (rdi). */
#define P_FINAL(t0, t1, t2, t3, t4, t5)                                                                            \
    "mov " R(t0) ", %rax\n\t sub " P(0) ", %rax\n\t"                                                               \
    "mov " R(t1) ", %rbx\n\t sbb " P(8) ", %rbx\n\t"                                                               \
    "mov " R(t2) ", %rcx\n\t sbb " P(16) ", %rcx\n\t"                                                              \
    "mov " R(t3) ", %rdx\n\t sbb " P(24) ", %rdx\n\t"                                                              \
    "mov " R(t4) ", %rsi\n\t sbb " P(32) ", %rsi\n\t"                                                              \
    "mov " R(t5) ", %rbp\n\t sbb " P(40) ", %rbp\n\t"                                                              \
    "cmovc " R(t0) ", %rax\n\t cmovc " R(t1) ", %rbx\n\t cmovc " R(t2) ", %rcx\n\t"                                \
    "cmovc " R(t3) ", %rdx\n\t cmovc " R(t4) ", %rsi\n\t cmovc " R(t5) ", %rbp\n\t"                                \
    "mov %rax, 0(%rdi)\n\t mov %rbx, 8(%rdi)\n\t mov %rcx, 16(%rdi)\n\t"                                           \
    "mov %rdx, 24(%rdi)\n\t mov %rsi, 32(%rdi)\n\t mov %rbp, 40(%rdi)\n\t"

#define P_SAVE PUSH(rbx) PUSH(rbp) PUSH(r12) PUSH(r13) PUSH(r14) PUSH(r15)
#define P_RESTORE POP(r15) POP(r14) POP(r13) POP(r12) POP(rbp) POP(rbx)

__asm__(".pushsection .rodata\n\t.p2align 4\n"
        ".Lcuzk_p381:\n\t"
        ".quad 0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624\n\t"
        ".quad 0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a\n"
        ".Lcuzk_p381_inv:\n\t.quad 0x89f3fffcfffcfffd\n"
        ".Lcuzk_p381x2:\n\t"
        ".quad 0x73fdffffffff5556, 0x3d57fffd62a7ffff, 0xce61a541ed61ec48\n\t"
        ".quad 0xc8ee9709e70a257e, 0x96374f6c869759ae, 0x340223d472ffcd34\n"
        ".Lcuzk_r255:\n\t"
        ".quad 0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48\n"
        ".Lcuzk_r255_inv:\n\t.quad 0xfffffffeffffffff\n\t"
        ".popsection\n\t");

/* The bodies of the routines below. Each clobbers every register but rsp (P_FINAL uses rax, rbx, rcx, rdx, rsi, rbp
 * as temporaries), so a routine that runs several keeps its pointers in its frame. */

/* (rdi) = a·b·2^-384 mod p for a (rsi), b (rcx) < p, or unreduced operands with a·b < 8p² and a < 4p (the Fp2
 * squaring's, a < 4p and b < 2p or a < 2p and b < 4p): after each row the running value stays below a + p < 5p <
 * 2^384, and before P_FINAL below a·b/2^384 + p < 2p; rbp = −p⁻¹ mod 2^64 (free until P_FINAL). */
#define P_MONT_BODY                                                                                                \
    P_ROW0                                                                                                         \
    P_RED_INV("%rbp", r8, r9, r10, r11, r12, r13, r14)                                                             \
    P_ROW(8, r9, r10, r11, r12, r13, r14, r8)                                                                      \
    P_RED_INV("%rbp", r9, r10, r11, r12, r13, r14, r8)                                                             \
    P_ROW(16, r10, r11, r12, r13, r14, r8, r9)                                                                     \
    P_RED_INV("%rbp", r10, r11, r12, r13, r14, r8, r9)                                                             \
    P_ROW(24, r11, r12, r13, r14, r8, r9, r10)                                                                     \
    P_RED_INV("%rbp", r11, r12, r13, r14, r8, r9, r10)                                                             \
    P_ROW(32, r12, r13, r14, r8, r9, r10, r11)                                                                     \
    P_RED_INV("%rbp", r12, r13, r14, r8, r9, r10, r11)                                                             \
    P_ROW(40, r13, r14, r8, r9, r10, r11, r12)                                                                     \
    P_RED_INV("%rbp", r13, r14, r8, r9, r10, r11, r12)                                                             \
    P_FINAL(r14, r8, r9, r10, r11, r12)

/* (rdi) = t·2^-384 mod p for t (rsi) < p·2^384, fully reduced. The six q·p rounds run on the low half alone (its top
 * register starts at 0; after each round the register of the word that became 0 is the next round's top): they
 * leave u = (t_lo + q·p)/2^384 <= p. The high half t_hi < p is added after, so u + t_hi <= 2p − 1 and one
 * conditional subtraction ends it. rdi may equal rsi. */
#define P_REDC_BODY                                                                                                \
    "mov .Lcuzk_p381_inv(%rip), %rcx\n\t"                                                                          \
    "mov 0(%rsi), %r8\n\t mov 8(%rsi), %r9\n\t mov 16(%rsi), %r10\n\t"                                             \
    "mov 24(%rsi), %r11\n\t mov 32(%rsi), %r12\n\t mov 40(%rsi), %r13\n\t xor %r14d, %r14d\n\t"                    \
    P_RED_INV("%rcx", r8, r9, r10, r11, r12, r13, r14)                                                             \
    P_RED_INV("%rcx", r9, r10, r11, r12, r13, r14, r8)                                                             \
    P_RED_INV("%rcx", r10, r11, r12, r13, r14, r8, r9)                                                             \
    P_RED_INV("%rcx", r11, r12, r13, r14, r8, r9, r10)                                                             \
    P_RED_INV("%rcx", r12, r13, r14, r8, r9, r10, r11)                                                             \
    P_RED_INV("%rcx", r13, r14, r8, r9, r10, r11, r12)                                                             \
    "add 48(%rsi), %r14\n\t adc 56(%rsi), %r8\n\t adc 64(%rsi), %r9\n\t"                                           \
    "adc 72(%rsi), %r10\n\t adc 80(%rsi), %r11\n\t adc 88(%rsi), %r12\n\t"                                         \
    P_FINAL(r14, r8, r9, r10, r11, r12)

#define P_MULW                                                                                                     \
    P_ROW0                                                                                                         \
    "mov %r8, 0(%rdi)\n\t"                                                                                         \
    P_ROW(8, r9, r10, r11, r12, r13, r14, r8)                                                                      \
    "mov %r9, 8(%rdi)\n\t"                                                                                         \
    P_ROW(16, r10, r11, r12, r13, r14, r8, r9)                                                                     \
    "mov %r10, 16(%rdi)\n\t"                                                                                       \
    P_ROW(24, r11, r12, r13, r14, r8, r9, r10)                                                                     \
    "mov %r11, 24(%rdi)\n\t"                                                                                       \
    P_ROW(32, r12, r13, r14, r8, r9, r10, r11)                                                                     \
    "mov %r12, 32(%rdi)\n\t"                                                                                       \
    P_ROW(40, r13, r14, r8, r9, r10, r11, r12)                                                                     \
    "mov %r13, 40(%rdi)\n\t mov %r14, 48(%rdi)\n\t mov %r8, 56(%rdi)\n\t"                                          \
    "mov %r9, 64(%rdi)\n\t mov %r10, 72(%rdi)\n\t mov %r11, 80(%rdi)\n\t mov %r12, 88(%rdi)\n\t"

#define W12_LOAD(base, off)                                                                                        \
    "mov " #off "+0" base ", %r8\n\t mov " #off "+8" base ", %r9\n\t mov " #off "+16" base ", %r10\n\t"            \
    "mov " #off "+24" base ", %r11\n\t mov " #off "+32" base ", %r12\n\t mov " #off "+40" base ", %r13\n\t"        \
    "mov " #off "+48" base ", %r14\n\t mov " #off "+56" base ", %r15\n\t mov " #off "+64" base ", %rax\n\t"        \
    "mov " #off "+72" base ", %rbx\n\t mov " #off "+80" base ", %rcx\n\t mov " #off "+88" base ", %rdx\n\t"
#define W12_SUB(base, off)                                                                                         \
    "sub " #off "+0" base ", %r8\n\t sbb " #off "+8" base ", %r9\n\t sbb " #off "+16" base ", %r10\n\t"            \
    "sbb " #off "+24" base ", %r11\n\t sbb " #off "+32" base ", %r12\n\t sbb " #off "+40" base ", %r13\n\t"        \
    "sbb " #off "+48" base ", %r14\n\t sbb " #off "+56" base ", %r15\n\t sbb " #off "+64" base ", %rax\n\t"        \
    "sbb " #off "+72" base ", %rbx\n\t sbb " #off "+80" base ", %rcx\n\t sbb " #off "+88" base ", %rdx\n\t"
#define W6_STORE_HI(base, off)                                                                                     \
    "mov %r14, " #off "+0" base "\n\t mov %r15, " #off "+8" base "\n\t mov %rax, " #off "+16" base "\n\t"          \
    "mov %rbx, " #off "+24" base "\n\t mov %rcx, " #off "+32" base "\n\t mov %rdx, " #off "+40" base "\n\t"
#define W6_STORE_LO(base, off)                                                                                     \
    "mov %r8, " #off "+0" base "\n\t mov %r9, " #off "+8" base "\n\t mov %r10, " #off "+16" base "\n\t"            \
    "mov %r11, " #off "+24" base "\n\t mov %r12, " #off "+32" base "\n\t mov %r13, " #off "+40" base "\n\t"
/* the sum of the two 6-word halves at base into the frame at off */
#define W6_SUM(base, off)                                                                                          \
    "mov 0" base ", %r8\n\t mov 8" base ", %r9\n\t mov 16" base ", %r10\n\t"                                       \
    "mov 24" base ", %r11\n\t mov 32" base ", %r12\n\t mov 40" base ", %r13\n\t"                                   \
    "add 48" base ", %r8\n\t adc 56" base ", %r9\n\t adc 64" base ", %r10\n\t"                                     \
    "adc 72" base ", %r11\n\t adc 80" base ", %r12\n\t adc 88" base ", %r13\n\t"                                   \
    W6_STORE_LO("(%rsp)", off)

/* The operands of an Fp2 squaring (a0 + a1·u)² = (a0 + a1)(a0 − a1) + a0·2a1·u, from a (rsi) into the frame:
 * s = a0 + a1 at 0 (unreduced), d = a0 − a1, plus 2p when that borrows, at 48, m = 2a1 at 96 (unreduced), a0 at 144
 * (r may alias a). Each half of a may be below 2p (an unreduced sum): then s, m < 4p and d < 2p, so both products stay
 * below 8p² < p·2^384, and a Montgomery product of them stays below 2p before its final subtraction. */
#define FP2_SQR_OPERANDS                                                                                           \
    "mov 0(%rsi), %r8\n\t mov 8(%rsi), %r9\n\t mov 16(%rsi), %r10\n\t"                                             \
    "mov 24(%rsi), %r11\n\t mov 32(%rsi), %r12\n\t mov 40(%rsi), %r13\n\t"                                         \
    W6_STORE_LO("(%rsp)", 144)                                                                                     \
    "add 48(%rsi), %r8\n\t adc 56(%rsi), %r9\n\t adc 64(%rsi), %r10\n\t"                                           \
    "adc 72(%rsi), %r11\n\t adc 80(%rsi), %r12\n\t adc 88(%rsi), %r13\n\t"                                         \
    W6_STORE_LO("(%rsp)", 0)                                                                                       \
    "mov 0(%rsi), %r8\n\t mov 8(%rsi), %r9\n\t mov 16(%rsi), %r10\n\t"                                             \
    "mov 24(%rsi), %r11\n\t mov 32(%rsi), %r12\n\t mov 40(%rsi), %r13\n\t"                                         \
    "sub 48(%rsi), %r8\n\t sbb 56(%rsi), %r9\n\t sbb 64(%rsi), %r10\n\t"                                           \
    "sbb 72(%rsi), %r11\n\t sbb 80(%rsi), %r12\n\t sbb 88(%rsi), %r13\n\t"                                         \
    "sbb %r14, %r14\n\t"                                                                                           \
    "mov %r14, %rax\n\t and " P2(0) ", %rax\n\t mov %r14, %rbx\n\t and " P2(8) ", %rbx\n\t"                        \
    "mov %r14, %rcx\n\t and " P2(16) ", %rcx\n\t mov %r14, %rdx\n\t and " P2(24) ", %rdx\n\t"                      \
    "mov %r14, %r15\n\t and " P2(32) ", %r15\n\t and " P2(40) ", %r14\n\t"                                         \
    "add %rax, %r8\n\t adc %rbx, %r9\n\t adc %rcx, %r10\n\t adc %rdx, %r11\n\t adc %r15, %r12\n\t adc %r14, %r13\n\t" \
    W6_STORE_LO("(%rsp)", 48)                                                                                      \
    "mov 48(%rsi), %r8\n\t mov 56(%rsi), %r9\n\t mov 64(%rsi), %r10\n\t"                                           \
    "mov 72(%rsi), %r11\n\t mov 80(%rsi), %r12\n\t mov 88(%rsi), %r13\n\t"                                         \
    "add %r8, %r8\n\t adc %r9, %r9\n\t adc %r10, %r10\n\t adc %r11, %r11\n\t adc %r12, %r12\n\t adc %r13, %r13\n\t" \
    W6_STORE_LO("(%rsp)", 96)

#define FRAME(n) "sub $" #n ", %rsp\n\t.cfi_adjust_cfa_offset " #n "\n\t"
#define UNFRAME(n) "add $" #n ", %rsp\n\t.cfi_adjust_cfa_offset -" #n "\n\t"

/* void cuzk_mont_p381_mul_mulx(uint64_t r[6] (rdi), const uint64_t a[6] (rsi), const uint64_t b[6] (rdx)) */
__asm__(FUNC_BEGIN(cuzk_mont_p381_mul_mulx)
        P_SAVE
        "mov %rdx, %rcx\n\t mov .Lcuzk_p381_inv(%rip), %rbp\n\t"
        P_MONT_BODY
        P_RESTORE
        "ret\n\t"
        FUNC_END(cuzk_mont_p381_mul_mulx));

/* void cuzk_mont_p381_mul_wide_mulx(uint64_t r[12] (rdi), const uint64_t a[6] (rsi), const uint64_t b[6] (rdx)):
 * the plain 768-bit product a·b, no reduction. The rows of the multiplication above without the q·p rounds: after
 * row i the lowest word of the window is final and is stored, and its register becomes the next row's top word.
 * r must not overlap a or b. */
__asm__(FUNC_BEGIN(cuzk_mont_p381_mul_wide_mulx)
        PUSH(rbx) PUSH(r12) PUSH(r13) PUSH(r14) PUSH(r15)
        "mov %rdx, %rcx\n\t"
        P_MULW
        POP(r15) POP(r14) POP(r13) POP(r12) POP(rbx)
        "ret\n\t"
        FUNC_END(cuzk_mont_p381_mul_wide_mulx));

/* void cuzk_mont_p381_redc_mulx(uint64_t r[6] (rdi), const uint64_t t[12] (rsi)): P_REDC_BODY. */
__asm__(FUNC_BEGIN(cuzk_mont_p381_redc_mulx)
        P_SAVE
        P_REDC_BODY
        P_RESTORE
        "ret\n\t"
        FUNC_END(cuzk_mont_p381_redc_mulx));

/* void cuzk_mont_p381_fp2_redc_mulx(uint64_t r[12] (rdi), const uint64_t t[24] (rsi)): both halves of a double-width
 * Fp2 value reduced. r may equal t. */
__asm__(FUNC_BEGIN(cuzk_mont_p381_fp2_redc_mulx)
        P_SAVE
        FRAME(24)
        "mov %rdi, 0(%rsp)\n\t mov %rsi, 8(%rsp)\n\t"
        P_REDC_BODY
        "mov 0(%rsp), %rdi\n\t mov 8(%rsp), %rsi\n\t add $48, %rdi\n\t add $96, %rsi\n\t"
        P_REDC_BODY
        UNFRAME(24)
        P_RESTORE
        "ret\n\t"
        FUNC_END(cuzk_mont_p381_fp2_redc_mulx));

/* void cuzk_mont_p381_fp2_sqr_mulx(uint64_t r[12] (rdi), const uint64_t a[12] (rsi)): r = a², two Montgomery products
 * of the operands FP2_SQR_OPERANDS leaves in the frame (s, d, m, a0 at 0, 48, 96, 144; r at 192). r may equal a. */
__asm__(FUNC_BEGIN(cuzk_mont_p381_fp2_sqr_mulx)
        P_SAVE
        FRAME(200)
        "mov %rdi, 192(%rsp)\n\t"
        FP2_SQR_OPERANDS
        "lea 0(%rsp), %rsi\n\t lea 48(%rsp), %rcx\n\t mov 192(%rsp), %rdi\n\t mov .Lcuzk_p381_inv(%rip), %rbp\n\t"
        P_MONT_BODY
        "lea 144(%rsp), %rsi\n\t lea 96(%rsp), %rcx\n\t mov 192(%rsp), %rdi\n\t add $48, %rdi\n\t"
        "mov .Lcuzk_p381_inv(%rip), %rbp\n\t"
        P_MONT_BODY
        UNFRAME(200)
        P_RESTORE
        "ret\n\t"
        FUNC_END(cuzk_mont_p381_fp2_sqr_mulx));

/* void cuzk_mont_p381_fp2_sqrw_mulx(uint64_t r[24] (rdi), const uint64_t a[12] (rsi)): a² at double width,
 * r0 = (a0 + a1)(a0 − a1) < 8p², r1 = a0·2a1 < 8p² (src/ff/fp_wide.h), each half of a below 2p. r must not overlap
 * a. */
__asm__(FUNC_BEGIN(cuzk_mont_p381_fp2_sqrw_mulx)
        P_SAVE
        FRAME(200)
        "mov %rdi, 192(%rsp)\n\t"
        FP2_SQR_OPERANDS
        "lea 0(%rsp), %rsi\n\t lea 48(%rsp), %rcx\n\t mov 192(%rsp), %rdi\n\t"
        P_MULW
        "lea 144(%rsp), %rsi\n\t lea 96(%rsp), %rcx\n\t add $96, %rdi\n\t"
        P_MULW
        UNFRAME(200)
        P_RESTORE
        "ret\n\t"
        FUNC_END(cuzk_mont_p381_fp2_sqrw_mulx));

/* void cuzk_mont_p381_fp2_mulw_mulx(uint64_t r[24] (rdi), const uint64_t a[12] (rsi), const uint64_t b[12] (rdx)):
 * an Fp2 product at double width (src/ff/fp_wide.h) in one call, Karatsuba:
 *   r0 = a0·b0 − a1·b1 (plus p·2^384 when that borrows), r1 = (a0 + a1)(b0 + b1) − a0·b0 − a1·b1 = a0·b1 + a1·b0.
 * a, b < 2p in each half; r0 < p·2^384 and r1 < 8p² (src/ff/fp_wide.h). The sums a0 + a1, b0 + b1 (< 4p,
 * unreduced) and the products a0·b0, a1·b1 live in the frame: sa 0, sb 48, t0 96, t1 192, then the saved r, a, b at
 * 288, 296, 304. r must not overlap a or b. */
__asm__(FUNC_BEGIN(cuzk_mont_p381_fp2_mulw_mulx)
        P_SAVE
        "sub $312, %rsp\n\t.cfi_adjust_cfa_offset 312\n\t"
        "mov %rdi, 288(%rsp)\n\t mov %rsi, 296(%rsp)\n\t mov %rdx, 304(%rsp)\n\t"
        W6_SUM("(%rsi)", 0)
        W6_SUM("(%rdx)", 48)
        /* t0 = a0·b0 */
        "mov %rdx, %rcx\n\t lea 96(%rsp), %rdi\n\t"
        P_MULW
        /* t1 = a1·b1 */
        "mov 296(%rsp), %rsi\n\t mov 304(%rsp), %rcx\n\t add $48, %rsi\n\t add $48, %rcx\n\t lea 192(%rsp), %rdi\n\t"
        P_MULW
        /* r1 = sa·sb − t0 − t1 */
        "lea 0(%rsp), %rsi\n\t lea 48(%rsp), %rcx\n\t mov 288(%rsp), %rdi\n\t add $96, %rdi\n\t"
        P_MULW
        W12_LOAD("(%rdi)", 0)
        W12_SUB("(%rsp)", 96)
        W12_SUB("(%rsp)", 192)
        W6_STORE_LO("(%rdi)", 0)
        W6_STORE_HI("(%rdi)", 48)
        /* r0 = t0 − t1, plus p·2^384 (p into the high half) when it borrows */
        W12_LOAD("(%rsp)", 96)
        W12_SUB("(%rsp)", 192)
        "sbb %rsi, %rsi\n\t"
        W6_STORE_LO("(%rdi)", -96)
        "mov %rsi, %r8\n\t and " P(0) ", %r8\n\t mov %rsi, %r9\n\t and " P(8) ", %r9\n\t"
        "mov %rsi, %r10\n\t and " P(16) ", %r10\n\t mov %rsi, %r11\n\t and " P(24) ", %r11\n\t"
        "mov %rsi, %r12\n\t and " P(32) ", %r12\n\t and " P(40) ", %rsi\n\t"
        "add %r8, %r14\n\t adc %r9, %r15\n\t adc %r10, %rax\n\t"
        "adc %r11, %rbx\n\t adc %r12, %rcx\n\t adc %rsi, %rdx\n\t"
        W6_STORE_HI("(%rdi)", -48)
        "add $312, %rsp\n\t.cfi_adjust_cfa_offset -312\n\t"
        P_RESTORE
        "ret\n\t"
        FUNC_END(cuzk_mont_p381_fp2_mulw_mulx));

/* void cuzk_mont_p381_fp2_mul_mulx(uint64_t r[12] (rdi), const uint64_t a[12] (rsi), const uint64_t b[12] (rdx)):
 * r = a·b, the product at double width into the frame, then both halves reduced. r may alias a or b. */
__asm__(FUNC_BEGIN(cuzk_mont_p381_fp2_mul_mulx)
        PUSH(rbx)
        FRAME(192)
        "mov %rdi, %rbx\n\t lea 0(%rsp), %rdi\n\t"
        "call cuzk_mont_p381_fp2_mulw_mulx\n\t"
        "mov %rbx, %rdi\n\t lea 0(%rsp), %rsi\n\t"
        "call cuzk_mont_p381_fp2_redc_mulx\n\t"
        UNFRAME(192)
        POP(rbx)
        "ret\n\t"
        FUNC_END(cuzk_mont_p381_fp2_mul_mulx));

/* ---- r (255 bits, 4 words) ------------------------------------------------------------------------------------- */
#define Q(off) ".Lcuzk_r255+" #off "(%rip)"

#define R_ROW0                                                                                                     \
    "mov 0(%rcx), %rdx\n\t"                                                                                        \
    "mulx 0(%rsi), %r8, %r9\n\t"                                                                                   \
    "mulx 8(%rsi), %rax, %r10\n\t add %rax, %r9\n\t"                                                               \
    "mulx 16(%rsi), %rax, %r11\n\t adc %rax, %r10\n\t"                                                             \
    "mulx 24(%rsi), %rax, %r12\n\t adc %rax, %r11\n\t"                                                             \
    "adc $0, %r12\n\t"

/* r13 is the zero register here. */
#define R_ROW(off, t0, t1, t2, t3, t4)                                                                             \
    "mov " #off "(%rcx), %rdx\n\t"                                                                                 \
    "xor %r13d, %r13d\n\t"                                                                                         \
    MAC("0(%rsi)", t0, t1) MAC("8(%rsi)", t1, t2) MAC("16(%rsi)", t2, t3)                                          \
    "mulx 24(%rsi), %rax, " R(t4) "\n\t"                                                                           \
    "adcx %rax, " R(t3) "\n\t"                                                                                     \
    "adox %r13, " R(t4) "\n\t"                                                                                     \
    "adcx %r13, " R(t4) "\n\t"

/* r14 holds −r⁻¹ mod 2^64 */
#define R_RED(t0, t1, t2, t3, t4)                                                                                  \
    "mov " R(t0) ", %rdx\n\t"                                                                                      \
    "imul %r14, %rdx\n\t"                                                                                          \
    "xor %r13d, %r13d\n\t"                                                                                         \
    MAC(Q(0), t0, t1) MAC(Q(8), t1, t2) MAC(Q(16), t2, t3) MAC(Q(24), t3, t4)                                      \
    "adcx %r13, " R(t4) "\n\t"

#define R_FINAL(t0, t1, t2, t3)                                                                                    \
    "mov " R(t0) ", %rax\n\t sub " Q(0) ", %rax\n\t"                                                               \
    "mov " R(t1) ", %rbx\n\t sbb " Q(8) ", %rbx\n\t"                                                               \
    "mov " R(t2) ", %rcx\n\t sbb " Q(16) ", %rcx\n\t"                                                              \
    "mov " R(t3) ", %rdx\n\t sbb " Q(24) ", %rdx\n\t"                                                              \
    "cmovc " R(t0) ", %rax\n\t cmovc " R(t1) ", %rbx\n\t cmovc " R(t2) ", %rcx\n\t cmovc " R(t3) ", %rdx\n\t"      \
    "mov %rax, 0(%rdi)\n\t mov %rbx, 8(%rdi)\n\t mov %rcx, 16(%rdi)\n\t mov %rdx, 24(%rdi)\n\t"

/* void cuzk_mont_r255_mul_mulx(uint64_t r[4] (rdi), const uint64_t a[4] (rsi), const uint64_t b[4] (rdx)) */
__asm__(FUNC_BEGIN(cuzk_mont_r255_mul_mulx)
        PUSH(rbx) PUSH(r12) PUSH(r13) PUSH(r14)
        "mov %rdx, %rcx\n\t mov .Lcuzk_r255_inv(%rip), %r14\n\t"
        R_ROW0
        R_RED(r8, r9, r10, r11, r12)
        R_ROW(8, r9, r10, r11, r12, r8)
        R_RED(r9, r10, r11, r12, r8)
        R_ROW(16, r10, r11, r12, r8, r9)
        R_RED(r10, r11, r12, r8, r9)
        R_ROW(24, r11, r12, r8, r9, r10)
        R_RED(r11, r12, r8, r9, r10)
        R_FINAL(r12, r8, r9, r10)
        POP(r14) POP(r13) POP(r12) POP(rbx)
        "ret\n\t"
        FUNC_END(cuzk_mont_r255_mul_mulx));

/* ---- r: sums of products, reduced once ---------------------------------------------------------------------------
 * Σ a_i·b_i with every product at double width (8 words, in r8..r15) added into a 9-word sum in the frame, then one
 * reduction: the low half T_lo (4 words) Montgomery-reduced, W = (T_lo + Q·r)/2^256 ≤ r, plus the high half T_hi
 * (T < n·r², so T_hi < n·r/2 since r < 2^255): u = W + T_hi < (1 + n/2)·r, brought below r by subtracting 2^k·r
 * where that does not borrow, k from s − 1 down to 0, with 2^s ≥ 1 + n/2 (s ≤ 5, so n ≤ 60; the caller picks s
 * from n alone). A product costs 16 MULX and no reduction: about half a Montgomery multiplication. */

/* Row j ≥ 1 of a 4×4 product, t1..t4 += a·b_j (b_j at off of rcx), t4 the new top; rbp is the zero register. */
#define D_ROW(off, t0, t1, t2, t3, t4)                                                                             \
    "mov " #off "(%rcx), %rdx\n\t"                                                                                 \
    "xor %ebp, %ebp\n\t"                                                                                           \
    MAC("0(%rsi)", t0, t1) MAC("8(%rsi)", t1, t2) MAC("16(%rsi)", t2, t3)                                          \
    "mulx 24(%rsi), %rax, " R(t4) "\n\t"                                                                           \
    "adcx %rax, " R(t3) "\n\t"                                                                                     \
    "adox %rbp, " R(t4) "\n\t"                                                                                     \
    "adcx %rbp, " R(t4) "\n\t"

/* One round of reducing the 4-word window t0..t3 (t0 becomes 0 and drops off, t4 the new top); r14 holds −r⁻¹. */
#define D_RED(t0, t1, t2, t3, t4)                                                                                  \
    "mov " R(t0) ", %rdx\n\t"                                                                                      \
    "imul %r14, %rdx\n\t"                                                                                          \
    "xor %ebp, %ebp\n\t"                                                                                           \
    MAC(Q(0), t0, t1) MAC(Q(8), t1, t2) MAC(Q(16), t2, t3)                                                         \
    "mulx " Q(24) ", %rax, " R(t4) "\n\t"                                                                          \
    "adcx %rax, " R(t3) "\n\t"                                                                                     \
    "adox %rbp, " R(t4) "\n\t"                                                                                     \
    "adcx %rbp, " R(t4) "\n\t"

__asm__(".pushsection .rodata\n\t.p2align 3\n"
        ".Lcuzk_r255_ladder:\n\t" /* 16r, 8r, 4r, 2r, r in 5 words each */
        ".quad 0xfffffff000000010, 0x3bda402fffe5bfef, 0x339d80809a1d8055, 0x3eda753299d7d483, 7\n\t"
        ".quad 0xfffffff800000008, 0x9ded2017fff2dff7, 0x99cec0404d0ec02a, 0x9f6d3a994cebea41, 3\n\t"
        ".quad 0xfffffffc00000004, 0x4ef6900bfff96ffb, 0xcce7602026876015, 0xcfb69d4ca675f520, 1\n\t"
        ".quad 0xfffffffe00000002, 0xa77b4805fffcb7fd, 0x6673b0101343b00a, 0xe7db4ea6533afa90, 0\n\t"
        ".quad 0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48, 0\n"
        ".Lcuzk_r255_ladder_end:\n\t"
        ".popsection\n\t");

/* void cuzk_mont_r255_dot_mulx(uint64_t r[4] (rdi), const uint64_t *a (rsi), const uint64_t *b (rdx), size_t n (rcx),
 * unsigned s (r8)): the frame holds the sum at 0..64, r at 72, s at 80. */
__asm__(FUNC_BEGIN(cuzk_mont_r255_dot_mulx)
        PUSH(rbx) PUSH(rbp) PUSH(r12) PUSH(r13) PUSH(r14) PUSH(r15)
        FRAME(88)
        "mov %rdi, 72(%rsp)\n\t mov %r8, 80(%rsp)\n\t mov %rcx, %rdi\n\t mov %rdx, %rcx\n\t"
        "xor %eax, %eax\n\t mov %rax, 0(%rsp)\n\t mov %rax, 8(%rsp)\n\t mov %rax, 16(%rsp)\n\t"
        "mov %rax, 24(%rsp)\n\t mov %rax, 32(%rsp)\n\t mov %rax, 40(%rsp)\n\t mov %rax, 48(%rsp)\n\t"
        "mov %rax, 56(%rsp)\n\t mov %rax, 64(%rsp)\n"
        "1:\n\t"
        R_ROW0
        D_ROW(8, r9, r10, r11, r12, r13)
        D_ROW(16, r10, r11, r12, r13, r14)
        D_ROW(24, r11, r12, r13, r14, r15)
        "add %r8, 0(%rsp)\n\t adc %r9, 8(%rsp)\n\t adc %r10, 16(%rsp)\n\t adc %r11, 24(%rsp)\n\t"
        "adc %r12, 32(%rsp)\n\t adc %r13, 40(%rsp)\n\t adc %r14, 48(%rsp)\n\t adc %r15, 56(%rsp)\n\t"
        "adcq $0, 64(%rsp)\n\t"
        "add $32, %rsi\n\t add $32, %rcx\n\t dec %rdi\n\t jnz 1b\n\t"
        /* W = (T_lo + Q·r)/2^256 into r12, r8, r9, r10 */
        "mov 0(%rsp), %r8\n\t mov 8(%rsp), %r9\n\t mov 16(%rsp), %r10\n\t mov 24(%rsp), %r11\n\t"
        "mov .Lcuzk_r255_inv(%rip), %r14\n\t"
        D_RED(r8, r9, r10, r11, r12)
        D_RED(r9, r10, r11, r12, r8)
        D_RED(r10, r11, r12, r8, r9)
        D_RED(r11, r12, r8, r9, r10)
        /* u = W + T_hi into r12, r8, r9, r10, r11 */
        "add 32(%rsp), %r12\n\t adc 40(%rsp), %r8\n\t adc 48(%rsp), %r9\n\t adc 56(%rsp), %r10\n\t"
        "mov 64(%rsp), %r11\n\t adc $0, %r11\n\t"
        /* the ladder's last s rungs */
        "mov 80(%rsp), %rcx\n\t imul $40, %rcx, %rax\n\t lea .Lcuzk_r255_ladder_end(%rip), %rsi\n\t sub %rax, %rsi\n"
        "2:\n\t"
        "mov %r12, %rax\n\t sub 0(%rsi), %rax\n\t mov %r8, %rbx\n\t sbb 8(%rsi), %rbx\n\t"
        "mov %r9, %rdx\n\t sbb 16(%rsi), %rdx\n\t mov %r10, %r13\n\t sbb 24(%rsi), %r13\n\t"
        "mov %r11, %r14\n\t sbb 32(%rsi), %r14\n\t"
        "cmovnc %rax, %r12\n\t cmovnc %rbx, %r8\n\t cmovnc %rdx, %r9\n\t cmovnc %r13, %r10\n\t cmovnc %r14, %r11\n\t"
        "add $40, %rsi\n\t dec %rcx\n\t jnz 2b\n\t"
        "mov 72(%rsp), %rdi\n\t"
        "mov %r12, 0(%rdi)\n\t mov %r8, 8(%rdi)\n\t mov %r9, 16(%rdi)\n\t mov %r10, 24(%rdi)\n\t"
        UNFRAME(88)
        POP(r15) POP(r14) POP(r13) POP(r12) POP(rbp) POP(rbx)
        "ret\n\t"
        FUNC_END(cuzk_mont_r255_dot_mulx));

/* clang-format on */
#endif
