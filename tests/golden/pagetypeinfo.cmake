# golden_pagetypeinfo.cmake - the /proc formatters against known output.
#
# A freshly booted 2 GiB, 4-CPU guest: /proc/pagetypeinfo for vanilla and
# for hygiene (its extra "Free" column), /proc/buddyinfo and /proc/zoneinfo
# for vanilla; and /proc/vmstat after 20000 attempts of the random_alloc
# load (seed 3).  The expected files were produced by mmsim and checked by
# hand against the kernel's formats (v6.2 mm/vmstat.c, and a live 6.x
# guest's /proc) and numbers (DMA managed 3840, DMA32 managed 502458,
# min_free_kbytes 45056: khugepaged's recommendation for two zones).
include("${CMAKE_CURRENT_LIST_DIR}/_common.cmake")

golden_compare(pagetypeinfo-2G-vanilla.txt show pagetypeinfo --ram 2G --cpus 4)
golden_compare(pagetypeinfo-2G-hygiene.txt show pagetypeinfo --ram 2G --cpus 4 --policy hygiene)
golden_compare(buddyinfo-2G-vanilla.txt    show buddyinfo --ram 2G --cpus 4)
golden_compare(zoneinfo-2G-vanilla.txt     show zoneinfo --ram 2G --cpus 4)
golden_compare(vmstat-2G-vanilla-ops20000-seed3.txt show vmstat --ops 20000 --seed 3)

golden_finish()
