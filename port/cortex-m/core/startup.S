/* startup.S - reset entry and vector table of every Cortex-M image: the ARMv7-M core's part,
 * the same on each board (a board with more than 32 external interrupts lengthens the .rept
 * below, so that an unexpected one is still reported). The board's init runs from here through
 * hs_board_init (core/hs_core.c, which calls the board's hs_bsp_init).
 *
 * Written in assembly because nothing in C may run before the FPU is enabled (the compiler is
 * free to use FP registers anywhere with -mfloat-abi=hard) and before .data/.bss exist. */
    .syntax unified
    .thumb

    .section .vectors, "a"
    .align 7
    .globl hs_vectors
hs_vectors:
    .word __stack_top
    .word hs_reset_handler
    .word hs_nmi_handler
    .word hs_fault_entry        /* 3 HardFault */
    .word hs_fault_entry        /* 4 MemManage */
    .word hs_fault_entry        /* 5 BusFault */
    .word hs_fault_entry        /* 6 UsageFault */
    .word 0, 0, 0, 0
    .word hs_svc_handler        /* 11 SVCall */
    .word hs_fault_entry        /* 12 DebugMonitor: never expected, report it like a fault */
    .word 0
    .word hs_pendsv_handler     /* 14 PendSV: runs the frame at low priority */
    .word hs_systick_handler    /* 15 SysTick: the 1 ms tick, overrun detection */
    /* 32 external interrupts: none is enabled; an unexpected one is reported, not ignored. */
    .rept 32
    .word hs_fault_entry
    .endr

    .text
    .thumb_func
    .globl hs_reset_handler
    .type hs_reset_handler, %function
hs_reset_handler:
    cpsid i
    /* Full access to CP10/CP11 (the FPU) before any compiled code runs. */
    ldr r0, =0xE000ED88
    ldr r1, [r0]
    orr r1, r1, #(0xF << 20)
    str r1, [r0]
    dsb
    isb
    /* .data from its load image. */
    ldr r0, =__data_start
    ldr r1, =__data_end
    ldr r2, =__data_load
1:  cmp r0, r1
    bhs 2f
    ldr r3, [r2], #4
    str r3, [r0], #4
    b 1b
2:  /* .bss to zero. */
    ldr r0, =__bss_start
    ldr r1, =__bss_end
    movs r3, #0
3:  cmp r0, r1
    bhs 4f
    str r3, [r0], #4
    b 3b
4:  /* Paint the stack below the current frame so its high-water mark can be measured. */
    ldr r0, =__stack_bottom
    mov r1, sp
    subs r1, r1, #64
    ldr r3, =0x5AC5AC5A
5:  cmp r0, r1
    bhs 6f
    str r3, [r0], #4
    b 5b
6:  cpsie i
    bl hs_board_init
    bl main
    bl hs_exit                  /* main's return value is the exit status */
7:  b 7b
    .size hs_reset_handler, . - hs_reset_handler

/* All faults enter here: pass the stacked exception frame and EXC_RETURN to C, which prints
 * the fault registers and exits. */
    .thumb_func
    .globl hs_fault_entry
    .type hs_fault_entry, %function
hs_fault_entry:
    tst lr, #4
    ite eq
    mrseq r0, msp
    mrsne r0, psp
    mov r1, lr
    mrs r2, ipsr
    b hs_fault_report
    .size hs_fault_entry, . - hs_fault_entry

/* Images without the frame (the unit tests) get these: an exception nobody expects is
 * reported like a fault instead of being ignored. */
    .thumb_func
    .weak hs_nmi_handler, hs_svc_handler, hs_pendsv_handler, hs_systick_handler
    .type hs_nmi_handler, %function
hs_nmi_handler:
hs_svc_handler:
hs_pendsv_handler:
hs_systick_handler:
    b hs_fault_entry
