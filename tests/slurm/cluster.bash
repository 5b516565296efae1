# cluster.bash - a private single-node Slurm on this host, for a script
# run as root: sourced by tests/slurm/sweep.sh and bench/slurm-sweep.sh.
#
# The caller defines skip MESSAGE (cannot start: exits) and fail MESSAGE
# (sets FAILED=1), and sets FAILED=0, before sourcing.  Sourcing starts
# munged, slurmctld and slurmd from a temporary directory $D (a generated
# slurm.conf $CONF, its own munge key and socket, two free ports; nothing
# in /etc, /run or /var is used) and leaves the node $H idle; every
# process of this cluster is stopped by PID at exit, and $D removed
# unless FAILED.  sl CMD... runs CMD with SLURM_CONF=$CONF; node_ok says
# whether the node was drained by a failed launch.
[[ $(id -u) == 0 ]] || skip "a private single-node Slurm needs root here (slurmd runs the jobs)"
for c in munged munge slurmctld slurmd sbatch squeue scontrol scancel sinfo sqlite3; do
	command -v "$c" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin command -v "$c" >/dev/null 2>&1 ||
		skip "'$c' is not installed (scripts/install-deps.sh installs slurmctld slurmd slurm-client munge sqlite3)"
done
export PATH=$PATH:/usr/sbin

D=$(mktemp -d /tmp/mmsim-slurm.XXXXXX) || skip "no temporary directory"
chmod 755 "$D"                  # munged wants its socket's directory o+x
CONF=$D/slurm.conf
# every Slurm command and mmsim get SLURM_CONF; this shell does not, so
# that the processes of this cluster are known by it (the last check)
sl() { SLURM_CONF=$CONF "$@"; }

MUNGED_PID= CTLD_PID= SLURMD_PID=
stop_pid() {            # stop_pid NAME PID: TERM, 15 s, then KILL
	local name=$1 pid=$2 i
	[[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	for ((i = 0; i < 150; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	if kill -0 "$pid" 2>/dev/null; then
		echo "warning: $name ($pid) did not stop: SIGKILL"
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
}
# processes of this cluster: their environment names our slurm.conf
ours() {
	local e p
	for e in /proc/[0-9]*/environ; do
		p=${e#/proc/}; p=${p%/environ}
		[[ $p == "$$" ]] && continue
		grep -qzxF "SLURM_CONF=$CONF" "$e" && echo "$p"
	done 2>/dev/null
}
cleanup() {
	local i left
	if [[ -n $CTLD_PID ]] && kill -0 "$CTLD_PID" 2>/dev/null; then
		# tasks outlive slurmd (slurmstepd is detached): cancel them first
		sl scancel --quiet --user=root 2>/dev/null
		for ((i = 0; i < 50; i++)); do
			[[ -z $(sl squeue -h 2>/dev/null) ]] && break
			sleep 0.2
		done
	fi
	stop_pid slurmd "$SLURMD_PID"
	stop_pid slurmctld "$CTLD_PID"
	stop_pid munged "$MUNGED_PID"
	left=$(ours)
	if [[ -n $left ]]; then
		echo "warning: processes of the test cluster left, killed: $left"
		kill -KILL $left 2>/dev/null
	fi
	if ((FAILED)); then
		echo "the cluster's files and logs are kept in $D"
	else
		rm -rf "$D"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- munge: a private key and socket
dd if=/dev/urandom of="$D/munge.key" bs=1024 count=1 status=none
chmod 400 "$D/munge.key"
munged -F --key-file="$D/munge.key" --socket="$D/munge.sock" --pid-file="$D/munged.pid" \
	--seed-file="$D/munged.seed" --log-file="$D/munged.log" >"$D/munged.out" 2>&1 &
MUNGED_PID=$!
for ((i = 0; i < 50; i++)); do munge -S "$D/munge.sock" -n >/dev/null 2>&1 && break; sleep 0.1; done
munge -S "$D/munge.sock" -n >/dev/null 2>&1 || skip "munged did not start: $(tail -3 "$D/munged.log" "$D/munged.out" 2>/dev/null)"

# ---- slurm.conf: one node, this host, two free ports
port_free() { ! ss -ltnH "sport = :$1" 2>/dev/null | grep -q .; }
for ((i = 0; i < 20; i++)); do
	CTLD_PORT=$((20000 + (RANDOM % 20000) * 2))
	port_free $CTLD_PORT && port_free $((CTLD_PORT + 1)) && break
done
H=$(hostname -s)
MEM=$(($(free -m | awk '/^Mem:/{print $2}') - 1024))
HW=$(slurmd -C | head -1 | sed -e 's/^NodeName=[^ ]* //' -e 's/RealMemory=[0-9]*//')
mkdir -p "$D/state" "$D/spool" "$D/log"
cat >"$CONF" <<CONF
ClusterName=mmsimtest
SlurmctldHost=localhost
SlurmctldPort=$CTLD_PORT
SlurmdPort=$((CTLD_PORT + 1))
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$D/munge.sock
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
SlurmctldLogFile=$D/log/slurmctld.log
SlurmdLogFile=$D/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
MailProg=/bin/true
NodeName=$H NodeAddr=127.0.0.1 $HW RealMemory=$MEM State=UNKNOWN
PartitionName=test Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF
# a plain command (not a function) in the background: $! is the daemon
SLURM_CONF=$CONF slurmctld -D -i >"$D/log/slurmctld.out" 2>&1 &
CTLD_PID=$!
SLURM_CONF=$CONF slurmd -D -N "$H" >"$D/log/slurmd.out" 2>&1 &
SLURMD_PID=$!
state=
for ((i = 0; i < 300; i++)); do
	state=$(sl sinfo -h -n "$H" -o %T 2>/dev/null)
	[[ $state == idle ]] && break
	sleep 0.1
done
[[ $state == idle ]] || skip "the single-node Slurm did not start (node state '$state'): $(tail -5 "$D"/log/*.log)"
echo "ok: Slurm up (node $H idle, ports $CTLD_PORT and $((CTLD_PORT + 1)), files in $D)"

node_ok() {             # a failed launch drains the node: say so
	local s
	s=$(sl sinfo -h -n "$H" -o '%T %E' 2>/dev/null)
	case $s in *drain* | down*) fail "node $s; slurmd.log: $(tail -5 "$D/log/slurmd.log")"; return 1 ;; esac
	return 0
}
