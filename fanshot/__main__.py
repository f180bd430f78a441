from fanshot.cli import main

raise SystemExit(main())
