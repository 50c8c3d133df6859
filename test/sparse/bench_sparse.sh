#!/bin/sh
# make bench-sparse: instructions per step of the chain and the ladder with the sparse
# backend (callgrind; (Ir(S1) - Ir(S0)) / (S1 - S0), so the init and analysis cancel), default
# configuration (sdirk), galpha and spook, and the log-log slope of each series. Not part of make test.
set -e
B=${1:-build/hilstep-spbench}
S0=${SP_S0:-10}; S1=${SP_S1:-110}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind missing"; exit 1; }
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'; }
echo "== instructions per step (valgrind --tool=callgrind; (Ir($S1 steps) - Ir($S0 steps)) / $((S1 - S0)))"
printf '%-7s %5s %-8s %7s %7s %12s %12s\n' model n config nq+nc flops instr/step instr/flop
for m in chain ladder; do
    [ $m = chain ] && NS=${SP_CHAIN:-"8 16 32 64 128"} || NS=${SP_LADDER:-"5 10 20 40 80 100"}
    for c in default galpha spook; do
        pts=""
        for n in $NS; do
            a=$(ir $B one $m $n $c $S0); b=$(ir $B one $m $n $c $S1)
            per=$(( (b - a) / (S1 - S0) ))
            an=$($B analysis $m $n $c)
            nn=$(echo "$an" | sed -n 's/.* nq=\([0-9]*\) nc=\([0-9]*\).*/\1 \2/p' | awk '{print $1 + $2}')
            fl=$(echo "$an" | sed -n 's/.*flops_factor=\([0-9]*\) flops_solve=\([0-9]*\).*/\1 \2/p' | awk '{print $1 + $2}')
            printf '%-7s %5d %-8s %7d %7d %12d %12.1f\n' $m $n $c $nn $fl $per $(echo "$per $fl" | awk '{print $1 / $2}')
            pts="$pts $n:$per"
        done
        echo "$pts" | awk -v m=$m -v c=$c '{ n = 0; sx = sy = sxx = sxy = 0
            for (i = 1; i <= NF; ++i) { split($i, p, ":"); x = log(p[1]); y = log(p[2]); sx += x; sy += y; sxx += x * x; sxy += x * y; ++n }
            printf "slope %s %s (log-log, least squares over all n): %.3f\n", m, c, (n * sxy - sx * sy) / (n * sxx - sx * sx) }'
    done
done
