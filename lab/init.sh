#!/bin/sh
# PID 1 of the lab's guest (busybox sh, in the initramfs lab/build.py makes).
# Mounts the host's root (virtiofs tag "root", read-only) under a tmpfs overlay, the run's output
# folder (virtiofs tag "out", writable) at /lab-out, the cloud kernel's modules over /usr/lib/modules,
# then runs /lab-out/job in that root and powers off. Kernel parameters it reads:
#   lab.modules=PATH   the extracted kernel's lib/modules, a path in the host's root
#   lab.upper=SIZE     the tmpfs under the overlay (what the guest writes outside /lab-out)
export PATH=/bin
/bin/busybox --install -s /bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev

arg() {
	for word in $(cat /proc/cmdline); do
		case "$word" in "$1"=*) echo "${word#*=}" ;; esac
	done
}
fail() {
	echo "lab-init: $*"
	sync
	poweroff -f
}

while read -r ko; do
	insmod "/modules/$ko" || fail "insmod $ko failed"
done < /modules/order

mount -t virtiofs -o ro root /lower || fail "cannot mount the host's root (virtiofs tag root)"
mount -t tmpfs -o "size=$(arg lab.upper)" tmpfs /upper || fail "cannot mount the overlay's tmpfs"
mkdir -p /upper/data /upper/work
mount -t overlay overlay -o lowerdir=/lower,upperdir=/upper/data,workdir=/upper/work /newroot \
	|| fail "cannot mount the overlay"
mkdir -p /newroot/lab-out
mount -t virtiofs out /newroot/lab-out || fail "cannot mount the output folder (virtiofs tag out)"
modules="$(arg lab.modules)"
mkdir -p /newroot/usr/lib/modules
mount --bind "/newroot$modules" /newroot/usr/lib/modules || fail "cannot bind the modules at $modules"
mount -t proc proc /newroot/proc
mount -t sysfs sysfs /newroot/sys
mount -t devtmpfs devtmpfs /newroot/dev
mkdir -p /newroot/dev/pts /newroot/dev/shm
mount -t devpts devpts /newroot/dev/pts
mount -t tmpfs tmpfs /newroot/dev/shm
mount -t tmpfs tmpfs /newroot/tmp
mount -t tmpfs tmpfs /newroot/run
mkdir -p /newroot/run/lock  # as systemd-tmpfiles would: iscsiadm locks there
# the guest has no /etc/mtab of its own when the host's is a file
[ -L /newroot/etc/mtab ] || ln -sf ../proc/self/mounts /newroot/etc/mtab 2>/dev/null

cat /proc/uptime > /newroot/lab-out/booted
echo "lab-init: root mounted after $(cut -d' ' -f1 /proc/uptime) s, running /lab-out/job"
chroot /newroot /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 /bin/sh -c 'cd /lab-out && exec ./job'
echo $? > /newroot/lab-out/exit-status
echo "lab-init: job finished with status $(cat /newroot/lab-out/exit-status), powering off"
sync
poweroff -f
